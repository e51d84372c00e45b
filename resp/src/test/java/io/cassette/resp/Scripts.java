package io.cassette.resp;

import java.util.LinkedHashMap;
import java.util.Map;

/** Command scripts for {@link DifferentialTest}: one command per line. */
final class Scripts {
  private Scripts() {}

  static final Map<String, String> ALL = new LinkedHashMap<>();

  /** Lists spanning several storage chunks (1024 positions each), edited across boundaries. */
  private static String bigLists() {
    StringBuilder sb = new StringBuilder();
    StringBuilder push = new StringBuilder("RPUSH big");
    for (int i = 0; i < 3000; i++) {
      push.append(' ').append(i % 7 == 0 ? "x" : "e" + i);
    }
    sb.append(push).append('\n');
    StringBuilder lpush = new StringBuilder("LPUSH big");
    for (int i = 0; i < 1500; i++) {
      lpush.append(" l").append(i);
    }
    sb.append(lpush).append('\n');
    for (String cmd : new String[] {"LLEN big", "LINDEX big 1499", "LINDEX big 1500",
        "LINDEX big 1023", "LINDEX big 1024", "LINDEX big -1", "LINDEX big -1025",
        "LRANGE big 1020 1030", "LRANGE big 1495 1505", "LRANGE big -1030 -1020",
        "LRANGE big 2040 2060", "LPOP big 1030", "RPOP big 1100", "LLEN big",
        "LRANGE big 0 5", "LRANGE big -5 -1", "LSET big 1024 set1024", "LINDEX big 1024",
        "LTRIM big 10 -10", "LLEN big", "LRANGE big 0 3", "LRANGE big -3 -1",
        "LPOS big x", "LPOS big x RANK -2", "LPOS big x COUNT 5", "LREM big 3 x",
        "LREM big -2 x", "LLEN big", "LINSERT big BEFORE set1024 before", "LINDEX big 1024",
        "LINSERT big AFTER e2995 after", "LRANGE big -4 -1", "LLEN big",
        "LMOVE big other RIGHT LEFT", "RPOPLPUSH big other", "LRANGE other 0 -1",
        "LTRIM big 1000 1003", "LRANGE big 0 -1", "DEL big", "LLEN big",
        "RPUSH big again", "LRANGE big 0 -1"}) {
      sb.append(cmd).append('\n');
    }
    return sb.toString();
  }

  static {
    ALL.put("strings", """
        SET a 1
        GET a
        SET a 2 NX
        SET a 3 XX
        GET a
        SET b 5 XX
        SET a 10 GET
        SET a 11 NX GET
        GET nosuch
        SET c v EX 0
        SET c v EX -5
        SET c v EX abc
        SET c v EX 10 PX 10
        SET c v KEEPTTL EX 10
        SET c v NX XX
        SET c v FOO
        SET c v EX 100
        TTL c
        SET c w KEEPTTL
        TTL c
        SET c x
        TTL c
        SETNX c y
        SETNX d y
        SETEX e 100 v
        SETEX e 0 v
        PSETEX e 100000 v
        GETSET e new
        GETDEL e
        GETDEL e
        MSET k1 v1 k2 v2 k3 v3
        MGET k1 k2 nosuch k3
        MSET k1
        MSETNX k1 x k9 y
        MSETNX k8 x k9 y
        MGET k8 k9
        INCR n
        INCRBY n 10
        DECR n
        DECRBY n 5
        INCRBY n abc
        INCR k1
        SET big 9223372036854775807
        INCR big
        SET small -9223372036854775808
        DECR small
        DECRBY n -9223372036854775808
        INCRBYFLOAT f 10.5
        INCRBYFLOAT f 0.1
        INCRBYFLOAT f -5
        INCRBYFLOAT f 5.0e3
        INCRBYFLOAT f abc
        INCRBYFLOAT k1 1
        APPEND s hello
        APPEND s " world"
        GET s
        STRLEN s
        STRLEN nosuch
        GETRANGE s 0 4
        GETRANGE s -5 -1
        GETRANGE s 5 2
        GETRANGE s 0 -100
        GETRANGE s -100 100
        GETRANGE nosuch 0 10
        SETRANGE s 6 WORLD
        GET s
        SETRANGE s 20 x
        GET s
        SETRANGE s -1 x
        SETRANGE new 0 ""
        EXISTS new
        SETRANGE new2 3 abc
        GET new2
        GETEX s
        GETEX s EX 100
        TTL s
        GETEX s PERSIST
        TTL s
        GETEX s EX 10 PX 100
        GETEX nosuch EX 10
        """);
    ALL.put("keys", """
        SET a 1
        SET b 2
        RPUSH l x
        DEL a b nosuch
        EXISTS a l l nosuch
        TYPE l
        TYPE nosuch
        SET s v
        TYPE s
        EXPIRE s 100
        TTL s
        PTTL nosuch
        TTL l
        EXPIRE s 100 NX
        EXPIRE s 200 XX
        EXPIRE s 50 GT
        EXPIRE s 500 GT
        EXPIRE s 1000 LT
        EXPIRE s 10 LT
        TTL s
        EXPIRE s 10 NX XX
        EXPIRE s 10 GT LT
        EXPIRE s 10 FOO
        EXPIRE s abc
        EXPIRE nosuch 10
        PERSIST s
        PERSIST s
        TTL s
        EXPIRE l 100 XX
        EXPIRE l 100 LT
        TTL l
        PEXPIRE s 100000
        PERSIST s
        EXPIREAT s 1
        EXISTS s
        SET t v
        PEXPIREAT t 99999999999999
        PEXPIRETIME t
        EXPIRETIME t
        EXPIRETIME nosuch
        EXPIRETIME l
        PERSIST l
        EXPIRETIME l
        EXPIRE t 9223372036854775807
        SET x 1
        RENAME x y
        GET y
        EXISTS x
        RENAME nosuch z
        RENAME y y
        SET z 2
        RENAMENX y z
        RENAMENX y w
        GET w
        RENAME l w
        TYPE w
        LRANGE w 0 -1
        COPY w w2
        LRANGE w2 0 -1
        COPY w w2
        COPY z w2 REPLACE
        GET w2
        COPY w w
        ~KEYS *
        ~KEYS w*
        KEYS nomatch*
        DBSIZE
        UNLINK w w2
        DBSIZE
        FLUSHDB
        DBSIZE
        RANDOMKEY
        SET one 1
        RANDOMKEY
        SCAN 0 COUNT 1000
        SCAN 0 MATCH one COUNT 1000
        SCAN 0 TYPE list COUNT 1000
        SCAN 0 COUNT 0
        SCAN abc
        """);
    ALL.put("hashes", """
        HSET h a 1 b 2
        HSET h a 1
        HSET h c
        HGET h a
        HGET h nosuch
        HGET nosuch a
        HMGET h a nosuch b
        HGETALL h
        HGETALL nosuch
        HLEN h
        HKEYS h
        HVALS h
        HEXISTS h a
        HEXISTS h z
        HSETNX h a 5
        HSETNX h d 5
        HDEL h d z
        HSTRLEN h a
        HINCRBY h n 5
        HINCRBY h n -10
        HINCRBY h a x
        HSET h s str
        HINCRBY h s 1
        HINCRBYFLOAT h f 1.5
        HINCRBYFLOAT h f 0.25
        HINCRBYFLOAT h s 1
        HMSET h e 1 f 2
        HDEL h a b e f n s c
        HLEN h
        EXISTS h
        SET str v
        HGET str a
        HSET str a 1
        HSCAN nosuch 0
        HSET small x 1 y 2
        HSCAN small 0
        HRANDFIELD nosuch
        HRANDFIELD small 0
        HSET one only 1
        HRANDFIELD one
        HRANDFIELD one 1 WITHVALUES
        HRANDFIELD one -3
        """);
    ALL.put("lists", """
        RPUSH l a b c
        LPUSH l z y
        LRANGE l 0 -1
        LLEN l
        LINDEX l 0
        LINDEX l -1
        LINDEX l 10
        LSET l 1 Z
        LSET l 10 x
        LSET nosuch 0 x
        LRANGE l 1 2
        LRANGE l -2 -1
        LRANGE l 5 10
        LRANGE l -100 100
        LPOP l
        RPOP l
        LPOP l 2
        LRANGE l 0 -1
        RPOP l 0
        LPOP l -1
        LPOP nosuch
        LPOP nosuch 2
        RPUSH m 1 2 3 2 1 2
        LINSERT m BEFORE 3 x
        LINSERT m AFTER 1 y
        LINSERT m AFTER nosuch y
        LINSERT m MIDDLE 1 y
        LINSERT nosuch AFTER 1 y
        LRANGE m 0 -1
        LREM m 2 2
        LRANGE m 0 -1
        LREM m -1 1
        LRANGE m 0 -1
        LREM m 0 nosuch
        LPOS m x
        LPOS m 2
        LPOS m nosuch
        RPUSH p a b a c a
        LPOS p a RANK 2
        LPOS p a RANK -1
        LPOS p a COUNT 0
        LPOS p a COUNT 2 RANK -1
        LPOS p a MAXLEN 1 COUNT 0
        LPOS p a RANK 0
        LTRIM p 1 -2
        LRANGE p 0 -1
        LTRIM p 5 10
        EXISTS p
        LPUSHX p x
        RPUSHX nosuch x
        RPUSH q 1
        LPUSHX q 0
        RPUSHX q 2 3
        LRANGE q 0 -1
        LMOVE q r LEFT RIGHT
        LMOVE q r RIGHT LEFT
        LRANGE q 0 -1
        LRANGE r 0 -1
        LMOVE q q LEFT RIGHT
        LRANGE q 0 -1
        RPOPLPUSH r q
        LRANGE q 0 -1
        LMOVE nosuch q LEFT LEFT
        LMOVE q r UP DOWN
        SET s v
        LPUSH s x
        LMOVE q s LEFT LEFT
        BLPOP q 0.01
        BRPOP nosuch 0.01
        BLPOP q -1
        BLPOP q abc
        BLMOVE q r LEFT LEFT 0
        """);
    ALL.put("biglists", bigLists());
    ALL.put("sets", """
        SADD s a b c a
        SCARD s
        SISMEMBER s a
        SISMEMBER s z
        SMISMEMBER s a z c
        SREM s a z
        SCARD s
        ~SMEMBERS s
        SMEMBERS nosuch
        SADD t c d e
        ~SINTER s t
        ~SUNION s t
        ~SDIFF s t
        SINTER s nosuch
        SINTERSTORE dst s t
        ~SMEMBERS dst
        SUNIONSTORE dst s t
        SDIFFSTORE dst s t
        SINTERSTORE dst s nosuch
        EXISTS dst
        SINTERCARD 2 s t
        SINTERCARD 2 s t LIMIT 1
        SINTERCARD 0 s
        SINTERCARD 3 s t
        SINTERCARD 1 s LIMIT -1
        SMOVE s t b
        SMOVE s t b
        SCARD t
        SPOP nosuch
        SADD one x
        SPOP one
        EXISTS one
        SADD one x
        SRANDMEMBER one
        SRANDMEMBER one -2
        SRANDMEMBER nosuch 5
        SPOP one -1
        SET str v
        SADD str a
        SINTER s str
        """);
    ALL.put("zsets", """
        ZADD z 1 a 2 b 3 c
        ZADD z 1 a
        ZADD z CH 5 a
        ZADD z NX 10 a 4 d
        ZADD z XX 10 a 4 e
        ZADD z GT 1 a
        ZADD z LT 1 a
        ZADD z INCR 2 a
        ZADD z NX XX 1 a
        ZADD z GT LT 1 a
        ZADD z INCR 1 a 2 b
        ZADD z 1
        ZADD z abc a
        ZSCORE z a
        ZSCORE z nosuch
        ZMSCORE z a nosuch b
        ZINCRBY z 1.5 b
        ZINCRBY z 0.1 c
        ZCARD z
        ZRANGE z 0 -1 WITHSCORES
        ZRANGE z 0 1
        ZRANGE z -2 -1 WITHSCORES
        ZREVRANGE z 0 -1 WITHSCORES
        ZRANGEBYSCORE z 2 4
        ZRANGEBYSCORE z (2 4 WITHSCORES
        ZRANGEBYSCORE z -inf +inf LIMIT 1 2
        ZRANGEBYSCORE z x 1
        ZREVRANGEBYSCORE z +inf -inf
        ZRANGE z 2 4 BYSCORE
        ZRANGE z 4 2 BYSCORE REV WITHSCORES
        ZRANGE z 0 -1 REV
        ZRANGE z 0 -1 LIMIT 0 1
        ZCOUNT z 2 4
        ZCOUNT z (3.1 +inf
        ZRANK z a
        ZREVRANK z a
        ZRANK z nosuch
        ZREM z a nosuch
        ZADD lex 0 a 0 b 0 c 0 d 0 e
        ZRANGEBYLEX lex - +
        ZRANGEBYLEX lex [b (d
        ZRANGEBYLEX lex (b [d
        ZREVRANGEBYLEX lex + -
        ZRANGE lex [c + BYLEX
        ZRANGEBYLEX lex b d
        ZLEXCOUNT lex [b +
        ZREMRANGEBYLEX lex - [b
        ZRANGE lex 0 -1
        ZPOPMIN z
        ZPOPMAX z 2
        ZPOPMIN nosuch
        ZPOPMIN z -1
        ZADD r 1 a 2 b 3 c 4 d 5 e
        ZREMRANGEBYRANK r 0 1
        ZREMRANGEBYSCORE r 4 +inf
        ZRANGE r 0 -1 WITHSCORES
        ZADD f 1.1 x 2.5e-10 y -0.0 z 1e20 w
        ZRANGE f 0 -1 WITHSCORES
        ZADD inf +inf a -inf b
        ZRANGE inf 0 -1 WITHSCORES
        ZSCAN r 0
        SET str v
        ZADD str 1 a
        ZRANGE nosuch 0 -1
        """);
    ALL.put("transactions", """
        MULTI
        SET a 1
        INCR a
        GET a
        EXEC
        EXEC
        DISCARD
        MULTI
        MULTI
        SET a 2
        NOSUCHCMD
        EXEC
        GET a
        MULTI
        SET a x
        INCR a
        EXEC
        MULTI
        GET
        EXEC
        MULTI
        DISCARD
        WATCH a
        MULTI
        WATCH b
        EXEC
        """);
    ALL.put("server", """
        PING
        PING hello
        PING a b
        ECHO x
        SELECT 1
        SET indb1 v
        DBSIZE
        SELECT 0
        GET indb1
        SELECT 16
        SELECT x
        CLIENT SETNAME "bad name"
        CLIENT SETNAME good
        CLIENT GETNAME
        CLIENT NOSUCH
        CONFIG GET databases
        CONFIG SET nosuchparam 1
        CONFIG SET appendfsync sometimes
        CONFIG SET appendfsync everysec
        CONFIG
        AUTH x
        AUTH a b c
        FLUSHDB foo
        COMMAND COUNT x
        PUBLISH ch msg
        PUBSUB NUMSUB ch
        PUBSUB CHANNELS
        PUBSUB NUMPAT
        """);
    // Integer and float edge cases: overflow must give Redis's error, never an exception text.
    ALL.put("overflow", """
        SETRANGE k 9223372036854775807 A
        SETRANGE k -1 A
        SETRANGE k 9223372036854775808 A
        SET k hello
        GETRANGE k 0 9223372036854775807
        GETRANGE k -9223372036854775808 9223372036854775807
        GETRANGE k 9223372036854775807 -9223372036854775808
        RPUSH l a b c
        LRANGE l 0 9223372036854775807
        LRANGE l -9223372036854775808 9223372036854775807
        LRANGE l 9223372036854775807 9223372036854775807
        LINDEX l -9223372036854775808
        LSET l 9223372036854775807 x
        LREM l -9223372036854775808 x
        LPOS l a COUNT -1
        LPOS l a MAXLEN -1
        LPOP l -1
        LTRIM l -9223372036854775808 9223372036854775807
        LRANGE l 0 -1
        INCRBY n 9223372036854775807
        INCRBY n 1
        DECRBY n -9223372036854775808
        HSET h f 1
        HINCRBY h f 9223372036854775807
        SADD s a
        SRANDMEMBER s -9223372036854775808
        SRANDMEMBER s -3
        HRANDFIELD h -9223372036854775808
        ZADD z 1 m
        ZRANDMEMBER z -9223372036854775808
        ZADD z 1e400 m
        ZADD z 1e-400 m
        ZADD z 0e-400 m
        ZINCRBY z 1e400 m
        ZRANGE z 0 9223372036854775807
        ZRANGE z -inf +inf BYSCORE LIMIT 0 9223372036854775807
        SELECT 9223372036854775807
        SELECT 2147483648
        SELECT -1
        EXPIRE k 9223372036854775807
        PEXPIRE k 9223372036854775807
        SET k v PX 9223372036854775807
        SET k v EX 9223372036854775
        SCAN 0 COUNT 0
        SCAN 18446744073709551616
        HELLO 99999999999999999999
        HELLO 4
        HELLO 3 AUTH a
        HELLO 3 SETNAME
        HELLO abc
        """);
  }
}
