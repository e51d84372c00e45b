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
    ALL.put("sort", """
        RPUSH l 3 1 2 10 -5 2.5
        SORT l
        SORT l desc
        SORT l limit 1 3
        SORT l desc limit 0 2
        SORT l alpha
        SORT l alpha desc limit 2 10
        MSET w_3 30 w_1 10 w_2 20 w_10 5 w_-5 1
        SORT l by w_*
        SORT l by w_* get #
        SORT l by w_* get # get w_*
        SORT l by nosort
        SORT l by nosort desc
        SORT l by nosort limit 1 2
        SORT l by nosort desc limit 1 2
        HSET h_1 f a
        HSET h_2 f b
        SORT l get h_*->f get #
        SORT l store dst
        LRANGE dst 0 -1
        SORT l get w_* store dst2
        LRANGE dst2 0 -1
        SORT nokey store dst
        EXISTS dst
        SADD s 5 3 9 1
        SORT s
        SORT s desc limit 1 2
        SORT s by nosort store d3
        LRANGE d3 0 -1
        ZADD z 3 a 1 b 2 c
        SORT z alpha
        SORT z by nosort
        SORT z by nosort desc
        SORT z by nosort limit 1 1
        SORT z by nosort desc limit 1 5
        RPUSH bad a b
        SORT bad
        SORT bad alpha
        SET str x
        SORT str
        SORT l foo
        SORT l limit 1
        SORT_RO l desc
        SORT_RO l store x
        SORT l limit -5 100
        SORT l limit 3 -1
        SORT l limit 100 5
        """);
    ALL.put("hyperloglog", """
        PFADD h
        PFCOUNT h
        GET h
        PFADD h a b c d e f g
        PFADD h a
        PFCOUNT h
        GET h
        PFCOUNT h
        PFADD h2 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
        PFCOUNT h h2
        PFMERGE h3 h h2
        PFCOUNT h3
        GET h3
        PFDEBUG encoding h3
        PFDEBUG getreg nokey
        PFDEBUG foo h3
        SET s foo
        PFADD s a
        PFCOUNT s
        PFMERGE s h
        LPUSH l a
        PFADD l a
        PFCOUNT l h
        PFCOUNT e
        GET e
        PFDEBUG todense h2
        PFDEBUG encoding h2
        PFMERGE h4 h2 h
        GET h4
        PFCOUNT h4
        CONFIG set hll-sparse-max-bytes 30
        PFADD h5 a b c d e f g h i j k l m n o p q r s t u v w x y z
        PFDEBUG encoding h5
        PFCOUNT h5
        CONFIG set hll-sparse-max-bytes 3000
        """);
    ALL.put("hyperloglog large", "PFADD big " + String.join(" ", java.util.stream.IntStream.range(0, 3000).mapToObj(i -> "e" + i).toList()) + "\nPFCOUNT big\nGET big\nPFADD sp " + String.join(" ", java.util.stream.IntStream.range(0, 300).mapToObj(i -> "e" + i).toList()) + "\nGET sp\nPFCOUNT sp\nGET sp\nPFMERGE m sp big\nGET m\nPFCOUNT m\n");
    ALL.put("bitmaps", """
        SETBIT b 7 1
        SETBIT b 100 1
        SETBIT b 100 1
        SETBIT b 5 2
        SETBIT b -1 1
        SETBIT b abc 1
        GETBIT b 7
        GETBIT b 100000
        GETBIT nokey 1
        GET b
        BITCOUNT b
        BITCOUNT b 0 0
        BITCOUNT b 0 -1 bit
        BITCOUNT b 5 100 bit
        BITCOUNT b -5 -1
        BITCOUNT b 1 2 foo
        BITCOUNT b 1
        BITCOUNT b -1 -5
        SET s foobar
        BITCOUNT s
        BITCOUNT s 1 1
        BITCOUNT s 5 30 BIT
        BITPOS s 1
        BITPOS s 0
        BITPOS s 1 2
        BITPOS s 1 2 -1 bit
        BITPOS s 0 7 15 bit
        BITPOS s 1 -1
        BITPOS s 2
        BITPOS z 0
        BITPOS z 0
        BITPOS z 0 0 -1
        BITPOS z 0 0
        BITPOS nokey 1
        BITPOS nokey 0
        SET a abc
        SET c xyz
        BITOP and d a c
        GET d
        BITOP or d a c nokey
        GET d
        BITOP xor d a c
        GET d
        BITOP not d a
        GET d
        BITOP not d a c
        BITOP foo d a
        BITOP and d nokey1 nokey2
        EXISTS d
        LPUSH l x
        BITOP and d a l
        BITFIELD bf set i8 0 100 get i8 0 incrby i8 0 100 overflow sat incrby i8 0 100 overflow fail incrby i8 0 100
        BITFIELD bf set u8 #1 255 get u8 8 incrby u8 #1 10 overflow sat incrby u8 #1 300
        BITFIELD bf get i64 0 get u63 3 get i5 #3
        BITFIELD bf set u64 0 1
        BITFIELD bf get x8 0
        BITFIELD bf overflow foo get i8 0
        BITFIELD bf get i8
        BITFIELD_RO bf get i8 0 get u4 4
        BITFIELD_RO bf set i8 0 1
        GET bf
        BITFIELD bf incrby i64 0 9223372036854775807 incrby i64 0 1
        BITFIELD bf overflow sat incrby i64 0 9223372036854775807
        BITFIELD bf incrby u2 100 1 incrby u2 100 4 overflow sat incrby u2 100 -10
        BITFIELD l get i8 0
        SETBIT l 1 1
        GETBIT l 1
        """);
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
