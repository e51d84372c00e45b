package io.cassette.resp;

import java.util.LinkedHashMap;
import java.util.Map;

/** Command scripts for {@link Redis7TypesDifferentialTest}: one command per line. */
final class Redis7Scripts {
  private Redis7Scripts() {}

  static final Map<String, String> ALL = new LinkedHashMap<>();

  /** Commands whose keyspace notifications are compared (KEAn). */
  static final String NOTIFIED = """
      SET foo bar
      SET foo baz EX 100
      EXPIRE foo 100
      PERSIST foo
      DEL foo nokey
      LPUSH l a b
      RPOP l
      LPOP l
      SADD s a b
      SREM s x
      SREM s a
      SPOP s
      HSET h a 1
      HINCRBY h a 2
      HDEL h a
      ZADD z 1 a
      ZADD z INCR 1 a
      ZREM z a
      INCR n
      DECR n
      INCRBYFLOAT n 1.5
      APPEND n x
      SETRANGE n 0 y
      MSET a 1 b 2
      RENAME a c
      EXPIRE c 0
      SINTERSTORE d s nokey
      RPUSH l2 a
      LMOVE l2 l3 LEFT RIGHT
      RPOPLPUSH l3 l4
      SMOVE s2 s3 x
      SADD s2 x
      SMOVE s2 s3 x
      GETDEL b
      SETEX e 100 v
      GETEX e PERSIST
      """;

  static {
    ALL.put("encoding settings and OBJECT", """
        CONFIG SET hash-max-ziplist-entries 16
        CONFIG GET hash-max-ziplist-entries
        CONFIG GET hash-max-listpack-entries
        CONFIG SET hash-max-listpack-value 32
        CONFIG GET hash-max-ziplist-value
        CONFIG SET list-max-ziplist-size 4
        CONFIG GET list-max-listpack-size
        CONFIG SET list-compress-depth -1
        CONFIG SET set-max-intset-entries 1k
        CONFIG SET zset-max-ziplist-entries abc
        CONFIG SET zset-max-ziplist-value -1
        CONFIG SET hll-sparse-max-bytes 2kb
        CONFIG GET hll-sparse-max-bytes
        CONFIG SET set-max-listpack-entries 1
        SET s 123
        OBJECT ENCODING s
        SET s -0
        OBJECT ENCODING s
        SET s abcdefghijabcdefghijabcdefghijabcdefghij1234
        OBJECT ENCODING s
        SET s abcdefghijabcdefghijabcdefghijabcdefghij12345
        OBJECT ENCODING s
        SET n 12
        OBJECT REFCOUNT n
        RPUSH l a b c
        OBJECT ENCODING l
        HSET h a 1 b 2
        OBJECT ENCODING h
        HSET h c 0123456789012345678901234567890123456789
        OBJECT ENCODING h
        SADD st 1 2 3
        OBJECT ENCODING st
        SADD st a
        OBJECT ENCODING st
        ZADD z 1 a 2 b
        OBJECT ENCODING z
        ZADD z 3 0123456789012345678901234567890123456789012345678901234567890123456789
        OBJECT ENCODING z
        OBJECT ENCODING nokey
        OBJECT foo x
        OBJECT ENCODING
        OBJECT HELP
        OBJECT FREQ s
        CONFIG SET hash-max-ziplist-entries 512
        CONFIG SET hash-max-ziplist-value 64
        CONFIG SET list-max-ziplist-size -2
        CONFIG SET hll-sparse-max-bytes 3000
        """);
  }
}
