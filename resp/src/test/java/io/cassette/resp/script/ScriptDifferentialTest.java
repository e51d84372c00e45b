package io.cassette.resp.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.RealRedis;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corpus of scripts and functions against a real Redis 7.0 and Cassette, reply for reply,
 * byte for byte, in RESP2 and RESP3: the Lua/RESP conversions, redis.call and pcall errors
 * with their "script: SHA, on @user_script:LINE." suffix, the sandbox's errors, cjson, bit,
 * cmsgpack, struct, SCRIPT and FUNCTION replies. Skipped without redis-server.
 */
class ScriptDifferentialTest {
  @TempDir Path dir;

  static final String LIB = "#!lua name=difflib\n"
      + "redis.register_function('dset', function(keys, args) return redis.call('set', keys[1], args[1]) end)\n"
      + "redis.register_function{function_name='dget', callback=function(keys, args)\n"
      + "  return redis.call('get', keys[1]) end, flags={'no-writes'}, description='reads'}\n"
      + "redis.register_function('derr', function(keys, args)\n  return redis.call('incr', keys[1])\nend)";

  static final List<String[]> CORPUS = List.of(
      c("SET", "s", "abc"), c("RPUSH", "l", "a", "b", "c"), c("HSET", "h", "f", "v"),
      // Lua -> RESP
      e("return 'hello'"), e("return 100.5"), e("return -3.99"), e("return true"),
      e("return false"), e("return nil"), e("return {1,2,3,'ciao',{1,2}}"),
      e("return {1,2,nil,4}"), e("return {ok='fine'}"), e("return {err='ERR this is an error'}"),
      e("return {err='boom2'}"), e("return redis.error_reply('x y')"),
      e("return redis.error_reply('-ERR x y')"), e("return redis.error_reply('MY_ERR_CODE custom msg')"),
      e("return redis.status_reply('FINE')"), e("return {1.5,'a',true,false}"),
      e("return {double=3.14}"), e("return {map={a=1}}"), e("return {set={a=true}}"),
      e("return _G"), e("local a = {}; setmetatable(a,{__index=function() foo() end}) return a"),
      // KEYS, ARGV and redis.call
      new String[] {"EVAL", "return {KEYS[1],KEYS[2],ARGV[1],ARGV[2]}", "2", "a", "b", "c", "d"},
      new String[] {"EVAL", "return redis.call('get',KEYS[1])", "1", "s"},
      e("return redis.call('lrange','l',0,-1)"), e("return redis.call('hgetall','h')"),
      e("return redis.call('get','nokey')"), e("return tostring(redis.call('get','nokey'))"),
      e("return redis.call('incr','counter')"), e("return redis.call('incrbyfloat','fl','1.5')"),
      e("return redis.call('set','x','1')"), e("return redis.call('ping')"),
      e("return redis.call('type','l')"), e("return redis.call('exists','l','nokey')"),
      e("return redis.call('set','n',3.5)"), e("return redis.call('get','n')"),
      e("return redis.call('set','n',1e20)"), e("return redis.call('get','n')"),
      // errors of redis.call and pcall
      e("return redis.call('nosuch')"), e("return redis.pcall('nosuch')"),
      e("return redis.call('incr','x','y')"), e("return redis.call('incr','s')"),
      e("return redis.pcall('incr','s')"), e("redis.call('incr','s')"),
      e("local t = redis.pcall('incr','s') return t['err']"),
      e("return redis.call('multi')"), e("return redis.call('blpop','l',0)"),
      e("return redis.call()"), e("return redis.call({})"), e("return redis.call('get',{})"),
      e("\n\nreturn redis.call('lpush','s','x')"),
      e("error('boom')"), e("error({err='MY boom'})"),
      e("return pcall(function() error('inner') end)"),
      e("return redis.pcall('select', 99)"),
      // the sandbox
      e("return a"), e("a=10"), e("setmetatable(_G, {})"),
      e("local g = getmetatable(_G) g.__index = {}"), e("redis = function() return 1 end"),
      e("_G = {}"), e("redis.call = function() return 1 end"),
      e("cjson.encode = function() return 1 end"), e("bit.lshift = function() return 1 end"),
      e("loadfile('x')"), e("dofile('x')"), e("print('x')"), e("return os.time()"),
      e("return io.write('x')"), e("return type(unpack)"), e("return unpack({1,2,3})"),
      e("return loadstring('return 7')()"), e("return table.getn({1,2,3})"),
      e("return tostring(-1)"), e("return #KEYS"),
      // libraries
      e("return cjson.encode({1,2,{a=1}})"), e("return cjson.encode({})"),
      e("return cjson.encode('a/b\"c')"), e("return cjson.encode(3.25)"),
      e("return cjson.decode('[1,2,3]')[3]"),
      e("local d = cjson.decode('{\"a\":[1,2,{\"b\":null}]}') return d.a[2]"),
      e("return cjson.decode('{\"x\": \"\\\\u00e9\"}').x"),
      e("return {pcall(cjson.encode, {f=function() end})}"),
      e("return {pcall(cjson.decode, '{')}"),
      e("return bit.band(0xff, 0x0f)"), e("return bit.bor(1,2,4,8,16,32,64,128)"),
      e("return bit.bxor(1,2)"), e("return bit.tohex(65535)"), e("return bit.tohex(-1, -4)"),
      e("return bit.lshift(1, 31)"), e("return bit.rshift(-1, 28)"), e("return bit.arshift(-256, 4)"),
      e("return bit.bnot(0)"), e("return bit.tobit(4294967297)"), e("return bit.bswap(0x12345678)"),
      e("return cmsgpack.pack(0.1)"), e("return cmsgpack.pack(-1099511627776)"),
      e("return cmsgpack.pack({1,2,3})"), e("return cmsgpack.pack('abc', 300, -5, true)"),
      e("return cmsgpack.unpack(cmsgpack.pack({1,2,{3,'x'}}))"),
      e("return struct.pack('>I2i4', 513, -2)"), e("return {struct.unpack('<h', 'ab')}"),
      e("return struct.size('>iI2d')"),
      e("return redis.sha1hex('')"), e("return redis.sha1hex('Pizza & Mandolino')"),
      e("return redis.REDIS_VERSION"), e("return redis.setresp(4)"),
      e("redis.setresp(3) return redis.call('hgetall','h')"),
      e("redis.setresp(3) return redis.call('get','nokey') == nil"),
      e("redis.setresp(3) return {double=1.5}"),
      e("redis.setresp(3) return true"), e("return redis.log(redis.LOG_WARNING, 'from a test')"),
      // EVAL* and SCRIPT
      c("EVAL", "return 1", "-1"), c("EVAL", "return 1", "2", "a"), c("EVAL", "return 1", "x"),
      c("EVALSHA", "NotValidShaSUM", "0"), c("EVALSHA", "ffd632c7d33e571e9f24556ebed26c3479a87130", "0"),
      c("SCRIPT", "LOAD", "return 'loaded'"),
      c("EVALSHA", "b534286061d4b9e4026607613b95c06c06015ae8", "0"),
      c("EVALSHA", "B534286061D4B9E4026607613B95C06C06015AE8", "0"),
      c("SCRIPT", "EXISTS", "b534286061d4b9e4026607613b95c06c06015ae8", "ffd632c7d33e571e9f24556ebed26c3479a87130"),
      c("EVAL_RO", "return redis.call('get','s')", "0"),
      c("EVAL_RO", "return redis.call('set','s','y')", "0"),
      c("EVAL", "#!lua flags=no-writes\nreturn redis.call('set','s','y')", "0"),
      c("EVAL", "#!lua flags=no-writes\nreturn redis.call('get','s')", "0"),
      c("EVAL", "#!lua flags=bad\nreturn 1", "0"), c("EVAL", "#!lua foo=bar\nreturn 1", "0"),
      c("EVAL", "#!python\nreturn 1", "0"),
      c("EVAL_RO", "#!lua\nreturn 1", "0"),
      c("SCRIPT", "FLUSH"), c("SCRIPT", "FLUSH", "ASYNC"), c("SCRIPT", "FLUSH", "bad"),
      c("SCRIPT", "EXISTS", "b534286061d4b9e4026607613b95c06c06015ae8"),
      c("SCRIPT", "KILL"), c("SCRIPT", "NOSUCH"),
      // functions
      c("FUNCTION", "FLUSH"), c("FUNCTION", "LOAD", LIB), c("FUNCTION", "LOAD", LIB),
      c("FCALL", "dset", "1", "fk", "fv"), c("FCALL_RO", "dget", "1", "fk"),
      c("FCALL", "DGET", "1", "fk"), c("FCALL_RO", "dset", "1", "fk", "x"),
      c("FCALL", "derr", "1", "s"), c("FCALL", "nosuch", "0"), c("FCALL", "dget", "x"),
      c("~FUNCTION", "LIST"), c("~FUNCTION", "LIST", "WITHCODE"),
      c("~FUNCTION", "LIST", "LIBRARYNAME", "diff*"), c("FUNCTION", "LIST", "bad"),
      c("FUNCTION", "LIST", "LIBRARYNAME"), c("FUNCTION", "STATS"), c("FUNCTION", "KILL"),
      c("FUNCTION", "LOAD", "return 1"), c("FUNCTION", "LOAD", "#!lua\nreturn 1"),
      c("FUNCTION", "LOAD", "#!lua name=a name=b\nreturn 1"),
      c("FUNCTION", "LOAD", "#!lua name=x foo=bar\nreturn 1"),
      c("FUNCTION", "LOAD", "#!js name=x\nreturn 1"),
      c("FUNCTION", "LOAD", "#!lua name=bad-name\nreturn 1"),
      c("FUNCTION", "LOAD", "#!lua name=empty\nlocal a = 1"),
      c("FUNCTION", "LOAD", "#!lua name=math\nreturn math.random()"),
      c("FUNCTION", "LOAD", "#!lua name=callload\nredis.call('ping')"),
      c("FUNCTION", "LOAD", "#!lua name=dup\nredis.register_function('dset', function() end)"),
      c("FUNCTION", "LOAD", "#!lua name=twice\nredis.register_function('f1', function() end)\n"
          + "redis.register_function('f1', function() end)"),
      c("FUNCTION", "LOAD", "#!lua name=noargs\nredis.register_function()"),
      c("FUNCTION", "LOAD", "#!lua name=onearg\nredis.register_function('f')"),
      c("FUNCTION", "LOAD", "#!lua name=badflag\nredis.register_function{function_name='f', "
          + "callback=function() end, flags={'bad'}}"),
      c("FUNCTION", "LOAD", "foo", LIB),
      c("FUNCTION", "DELETE", "nosuch"), c("FUNCTION", "DELETE", "difflib"),
      c("FUNCTION", "LIST"), c("FUNCTION", "RESTORE", "bad_payload"),
      c("FUNCTION", "RESTORE", "a", "b", "c"), c("FUNCTION", "FLUSH", "bad"),
      c("FUNCTION", "FLUSH", "SYNC", "extra"), c("FUNCTION", "NOSUCH"));

  private static String sortedLines(String reply) {
    return String.join("\r\n", new java.util.TreeMap<String, Integer>() {{
        for (String l : reply.split("\r\n")) {
          merge(l, 1, Integer::sum);
        }
      }}.entrySet().stream().map(en -> en.getKey() + " x" + en.getValue()).toList());
  }

  private static String[] e(String script) {
    return new String[] {"EVAL", script, "0"};
  }

  private static String[] c(String... args) {
    return args;
  }

  @Test
  void sameRepliesAsRedis7() throws Exception {
    assumeTrue(RealRedis.available(), "redis-server not installed");
    try (TestServer cassette = TestServer.start(dir.resolve("cassette"));
         RealRedis redis = new RealRedis(dir.resolve("redis"))) {
      List<String> differences = new java.util.ArrayList<>();
      for (int resp : new int[] {2, 3}) {
        try (RawClient a = new RawClient(cassette.address);
             RawClient b = new RawClient(redis.address)) {
          if (resp == 3) {
            a.command("HELLO", "3");
            b.command("HELLO", "3");
            a.reply();
            b.reply();
          }
          a.command("FLUSHALL");
          b.command("FLUSHALL");
          a.reply();
          b.reply();
          int i = 0;
          for (String[] listed : CORPUS) {
            i++;
            // "~": a reply whose order is Redis's hash order (FUNCTION LIST): compared as a
            // multiset of lines.
            boolean unordered = listed[0].startsWith("~");
            String[] args = listed.clone();
            if (unordered) {
              args[0] = args[0].substring(1);
            }
            a.command(args);
            b.command(args);
            String mine = a.reply();
            String theirs = b.reply();
            if (unordered) {
              mine = sortedLines(mine);
              theirs = sortedLines(theirs);
            }
            if (!mine.equals(theirs)) {
              differences.add("RESP" + resp + " #" + i + " " + String.join(" ", args).replace("\n", "\\n")
                  + "\n  redis:    " + theirs.replace("\r\n", "\\r\\n")
                  + "\n  cassette: " + mine.replace("\r\n", "\\r\\n"));
            }
          }
        }
      }
      assertThat(differences).as(String.join("\n", differences)).isEmpty();
    }
  }
}
