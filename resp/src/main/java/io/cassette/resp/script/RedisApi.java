package io.cassette.resp.script;

import io.cassette.resp.acl.AccessControl;
import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.ConnectionCommands;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis} table scripts see: call, pcall, error_reply, status_reply, sha1hex, log,
 * setresp, set_repl, replicate_commands, breakpoint, debug, acl_check_cmd and the LOG_* /
 * REPL_* constants, with Redis 7.0's error texts. {@code redis.call} runs a command as the
 * script's own client on the thread running the script (which owns the dataset meanwhile),
 * and converts its RESP reply ({@link RespToLua}).
 */
final class RedisApi {
  private static final Logger LOG = LoggerFactory.getLogger("io.cassette.resp.script.lua");

  /** Commands a script may not run (Redis 7.0.15's "noscript" flag). */
  static final Set<String> NO_SCRIPT = Set.of("auth", "bgrewriteaof", "bgsave", "blmove", "blpop",
      "brpop", "brpoplpush", "bzpopmax", "bzpopmin", "blmpop", "bzmpop", "debug", "discard",
      "eval", "eval_ro", "evalsha", "evalsha_ro", "exec", "failover", "fcall", "fcall_ro",
      "hello", "monitor", "multi", "psubscribe", "psync", "punsubscribe", "quit", "replconf",
      "replicaof", "reset", "role", "save", "shutdown", "slaveof", "ssubscribe", "subscribe",
      "sunsubscribe", "sync", "unsubscribe", "unwatch", "wait", "watch", "script", "function",
      "acl", "latency", "module", "cluster|reset");
  /** Subcommands among them: the rest of CLIENT and CONFIG is allowed. */
  static final Set<String> NO_SCRIPT_SUB = Set.of("client|caching", "client|getname",
      "client|getredir", "client|id", "client|info", "client|kill", "client|list",
      "client|no-evict", "client|pause", "client|reply", "client|setname", "client|tracking",
      "client|trackinginfo", "client|unblock", "client|unpause", "config|get",
      "config|resetstat", "config|rewrite", "config|set");

  static final String VERSION = "7.0.15";
  static final int VERSION_NUM = 0x07000f;

  private final ScriptEngine engine;
  private final ServerContext server;

  RedisApi(ScriptEngine engine, ServerContext server) {
    this.engine = engine;
    this.server = server;
  }

  /** The run-time API (EVAL scripts, and functions while they run). */
  LuaTable runtime() {
    LuaTable t = new LuaTable();
    common(t);
    t.rawset("call", fn(a -> call(a, true)));
    t.rawset("pcall", fn(a -> call(a, false)));
    t.rawset("setresp", fn(a -> {
      if (a.narg() != 1) {
        throw raise("ERR redis.setresp() requires one argument.");
      }
      int v = a.arg1().isnumber() ? a.arg1().toint() : 0;
      if (v != 2 && v != 3) {
        throw raise("ERR RESP version must be 2 or 3.");
      }
      engine.current().resp = v;
      return LuaValue.NONE;
    }));
    t.rawset("set_repl", fn(a -> {
      if (a.narg() != 1) {
        throw raise("ERR redis.set_repl() requires one argument.");
      }
      int flags = a.arg1().isnumber() ? a.arg1().toint() : -1;
      if ((flags & ~3) != 0) {
        throw raise("ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
      }
      return LuaValue.NONE;
    }));
    t.rawset("replicate_commands", fn(a -> LuaValue.TRUE));
    t.rawset("breakpoint", fn(a -> LuaValue.FALSE));
    t.rawset("debug", fn(a -> LuaValue.NONE));
    t.rawset("acl_check_cmd", fn(this::aclCheck));
    t.rawset("REPL_NONE", LuaValue.valueOf(0));
    t.rawset("REPL_AOF", LuaValue.valueOf(1));
    t.rawset("REPL_SLAVE", LuaValue.valueOf(2));
    t.rawset("REPL_REPLICA", LuaValue.valueOf(2));
    t.rawset("REPL_ALL", LuaValue.valueOf(3));
    return t;
  }

  /** What a library sees while FUNCTION LOAD runs it: registration, logging, constants. */
  LuaTable loading(FunctionLoader loader) {
    LuaTable t = new LuaTable();
    common(t);
    t.rawset("register_function", fn(a -> loader.register(this, a)));
    return t;
  }

  private void common(LuaTable t) {
    t.rawset("error_reply", fn(a -> {
      if (a.narg() != 1 || !a.arg1().isstring()) {
        throw raise("ERR wrong number or type of arguments");
      }
      String s = a.arg1().tojstring();
      return RespToLua.errorTable(s.startsWith("-") ? s : "-" + s);
    }));
    t.rawset("status_reply", fn(a -> {
      if (a.narg() != 1 || !a.arg1().isstring()) {
        throw raise("ERR wrong number or type of arguments");
      }
      LuaTable ok = new LuaTable();
      ok.rawset("ok", a.arg1());
      return ok;
    }));
    t.rawset("sha1hex", fn(a -> {
      if (a.narg() != 1) {
        throw new LuaError("wrong number of arguments");
      }
      return LuaValue.valueOf(ScriptCache.sha1hex(LuaToResp.bytes(a.arg1().checkstring())));
    }));
    t.rawset("log", fn(a -> {
      if (a.narg() < 2) {
        throw new LuaError("redis.log() requires two arguments or more.");
      }
      if (!a.arg1().isnumber()) {
        throw new LuaError("First argument must be a number (log level).");
      }
      int level = a.arg1().toint();
      if (level < 0 || level > 3) {
        throw new LuaError("Invalid debug level.");
      }
      StringBuilder sb = new StringBuilder();
      for (int i = 2; i <= a.narg(); i++) {
        if (i > 2) {
          sb.append(' ');
        }
        sb.append(a.arg(i).tojstring());
      }
      switch (level) {
        case 0 -> LOG.debug("{}", sb);
        case 1 -> LOG.info("{}", sb);
        case 2 -> LOG.info("{}", sb);
        default -> LOG.warn("{}", sb);
      }
      return LuaValue.NONE;
    }));
    t.rawset("LOG_DEBUG", LuaValue.valueOf(0));
    t.rawset("LOG_VERBOSE", LuaValue.valueOf(1));
    t.rawset("LOG_NOTICE", LuaValue.valueOf(2));
    t.rawset("LOG_WARNING", LuaValue.valueOf(3));
    t.rawset("REDIS_VERSION", LuaValue.valueOf(VERSION));
    t.rawset("REDIS_VERSION_NUM", LuaValue.valueOf(VERSION_NUM));
  }

  /** redis.call / redis.pcall. */
  private Varargs call(Varargs a, boolean raise) {
    ScriptRun run = engine.current();
    byte[][] argv;
    try {
      argv = arguments(a);
    } catch (ScriptCallError e) {
      return fail(run, e.getMessage(), raise);
    }
    String name = lower(argv[0]);
    String sub = argv.length > 1 ? name + "|" + lower(argv[1]) : name;
    if (NO_SCRIPT.contains(name) || NO_SCRIPT_SUB.contains(sub) || NO_SCRIPT.contains(sub)) {
      // before the lookup: a command Redis refuses in scripts is refused so here even where
      // this server does not have it (yet)
      return fail(run, "ERR This Redis command is not allowed from script", raise);
    }
    CommandSpec spec = server.commands.get(name);
    if (spec == null) {
      return fail(run, "ERR Unknown Redis command called from script", raise);
    }
    if (!spec.arityOk(argv.length)) {
      return fail(run, "ERR Wrong number of args calling Redis command from script", raise);
    }
    boolean write = spec.has(CommandSpec.WRITE);
    if (write && run.readOnly) {
      return fail(run, "ERR Write commands are not allowed from read-only scripts.", raise);
    }
    String denied = aclDenied(run, spec, argv);
    if (denied != null) {
      return fail(run, denied, raise);
    }
    synchronized (run) { // against SCRIPT KILL: a killed script writes nothing more
      if (run.killed) {
        throw new ScriptGuard.ScriptAbort(run.killMessage());
      }
      if (write) {
        run.wrote = true;
      }
    }
    ByteBuf buf = Unpooled.buffer(64);
    Reply reply = run.scriptClient.reply;
    reply.protocol(run.resp);
    reply.target(buf);
    LuaValue result;
    try {
      server.runner.run(run.scriptClient, argv, false);
      result = buf.isReadable() ? RespToLua.read(buf) : LuaValue.NIL;
    } finally {
      reply.target(null);
      buf.release();
    }
    if (raise && result instanceof LuaTable t && t.rawget("err").isstring()) {
      // the command counted its error already (INFO errorstats): the script's reply must not
      t.rawset("ignore_err_stats_update", LuaValue.TRUE);
      throw new LuaError(withPosition(t));
    }
    return result;
  }

  private String aclDenied(ScriptRun run, CommandSpec spec, byte[][] argv) {
    var user = run.caller.user != null ? run.caller.user : server.acl.defaultUser();
    String denied = server.acl.check(user, spec, argv, false,
        () -> ConnectionCommands.describe(server, run.caller).stripTrailing());
    if (denied == null) {
      return null;
    }
    if (denied.equals(AccessControl.NOPERM_KEY)) {
      return "NOPERM The user executing the script can't access at least one of the keys"
          + " mentioned in the command";
    }
    if (denied.equals(AccessControl.NOPERM_CHANNEL)) {
      return "NOPERM The user executing the script can't publish to the channel mentioned in"
          + " the command";
    }
    return "NOPERM The user executing the script can't run this command or subcommand";
  }

  private Varargs aclCheck(Varargs a) {
    ScriptRun run = engine.current();
    byte[][] argv;
    try {
      argv = arguments(a);
    } catch (ScriptCallError e) {
      throw raise(e.getMessage());
    }
    CommandSpec spec = server.commands.get(lower(argv[0]));
    if (spec == null) {
      throw raise("ERR Invalid command passed to redis.acl_check_cmd()");
    }
    var user = run.caller.user != null ? run.caller.user : server.acl.defaultUser();
    return LuaValue.valueOf(server.acl.check(user, spec, argv, false, () -> "") == null);
  }

  /** A failed call: raised as a Lua error table (call) or returned (pcall). */
  private Varargs fail(ScriptRun run, String text, boolean raise) {
    LuaTable t = RespToLua.errorTable("-" + text);
    if (raise) {
      throw new LuaError(withPosition(t));
    }
    return t;
  }

  /** Adds where the script was (source, line) to an error table, as Redis's error handler. */
  private LuaTable withPosition(LuaTable t) {
    String[] pos = engine.currentInterpreter().guard.position();
    if (pos != null) {
      t.rawset("source", LuaValue.valueOf(pos[0]));
      t.rawset("line", LuaValue.valueOf(Integer.parseInt(pos[1])));
    }
    return t;
  }

  /** A Lua error table for {@code text}, with where the script is (Redis's error handler). */
  LuaError raise(String text) {
    return new LuaError(withPosition(RespToLua.errorTable("-" + text)));
  }

  /** The call's arguments as bytes: strings as they are, numbers as Redis 7.0 prints them. */
  private static byte[][] arguments(Varargs a) {
    int n = a.narg();
    if (n == 0) {
      throw new ScriptCallError("ERR Please specify at least one argument for this redis lib call");
    }
    byte[][] argv = new byte[n][];
    for (int i = 0; i < n; i++) {
      LuaValue v = a.arg(i + 1);
      if (v.type() == LuaValue.TSTRING) {
        argv[i] = LuaToResp.bytes((LuaString) v);
      } else if (v.type() == LuaValue.TNUMBER) {
        argv[i] = number(v.todouble()).getBytes(StandardCharsets.US_ASCII);
      } else {
        throw new ScriptCallError("ERR Lua redis lib command arguments must be strings or integers");
      }
    }
    return argv;
  }

  /** The shortest text that reads back as {@code d} (Redis 7.0 uses fpconv_dtoa). */
  static String number(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e17) {
      return Long.toString((long) d);
    }
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    String s = Double.toString(d);
    if (s.contains("E")) {
      BigDecimal b = new BigDecimal(s);
      int exp = b.precision() - b.scale() - 1;
      String mant = b.movePointLeft(exp).stripTrailingZeros().toPlainString();
      return mant + "e" + (exp < 0 ? "-" : "+") + String.format("%02d", Math.abs(exp));
    }
    return s;
  }

  static String lower(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
  }

  private interface Body {
    Varargs apply(Varargs args);
  }

  private static VarArgFunction fn(Body body) {
    return new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return body.apply(args);
      }
    };
  }

  /** A call refused before it ran (its arguments). */
  private static final class ScriptCallError extends RuntimeException {
    ScriptCallError(String text) {
      super(text, null, false, false);
    }
  }
}
