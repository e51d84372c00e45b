package io.cassette.resp.rdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The RDB codec against fixed bytes written by redis-server 7.0.15 (test resources: DUMP
 * payloads of each encoding, and a whole RDB file saved by SAVE; how they were made is in
 * fixtures.txt beside them).
 */
class RdbCodecTest {
  static byte[] resource(String name) throws IOException {
    try (InputStream in = RdbCodecTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  static RedisValue dump(String name) throws IOException {
    byte[] p = resource("dump-" + name + ".bin");
    assertThat(DumpPayload.verify(p)).as(name).isTrue();
    return DumpPayload.decode(p);
  }

  static List<String> text(List<byte[]> l) {
    List<String> out = new ArrayList<>();
    for (byte[] b : l) {
      out.add(new String(b, StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void crc64IsRedisOne() {
    byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
    assertThat(Crc64.of(check, 0, check.length)).isEqualTo(0xe9c6d914c4b8d9caL);
  }

  @Test
  void decodesEveryEncodingRedisDumps() throws IOException {
    assertThat(((RedisValue.Str) dump("str-small")).value()).asString().isEqualTo("hello");
    assertThat(((RedisValue.Str) dump("str-int")).value()).asString().isEqualTo("12345");
    assertThat(((RedisValue.Str) dump("str-big")).value()).asString().isEqualTo("abc".repeat(40)); // LZF
    assertThat(text(((RedisValue.ListValue) dump("list-small")).elements()))
        .containsExactly("a", "b", "1", "2", "300", "-5000", "70000");
    List<String> big = text(((RedisValue.ListValue) dump("list-big")).elements());
    assertThat(big).hasSize(2000);
    assertThat(big.get(0)).isEqualTo("e0");
    assertThat(big.get(1999)).isEqualTo("e1999");
    assertThat(text(((RedisValue.SetValue) dump("set-int")).members()))
        .containsExactly("1", "2", "3", "40000", "5000000000"); // intset, 8-byte
    assertThat(text(((RedisValue.SetValue) dump("set-str")).members())).containsExactlyInAnyOrder("x", "y", "z");
    assertThat(text(((RedisValue.SetValue) dump("set-big")).members())).hasSize(600).contains("m0", "m599");
    RedisValue.HashValue h = (RedisValue.HashValue) dump("hash-small");
    assertThat(text(h.fields())).containsExactly("f1", "f2", "f3");
    assertThat(text(h.values())).containsExactly("v1", "2", "");
    RedisValue.HashValue hl = (RedisValue.HashValue) dump("hash-long");
    assertThat(text(hl.values())).containsExactly("x".repeat(100));
    RedisValue.ZSetValue z = (RedisValue.ZSetValue) dump("zset-small");
    assertThat(text(z.members())).containsExactly("c", "a", "b");
    assertThat(z.scores()).containsExactly(-3, 1, 2.5);
    RedisValue.ZSetValue zb = (RedisValue.ZSetValue) dump("zset-big");
    Map<String, Double> scores = new LinkedHashMap<>();
    for (int i = 0; i < zb.members().size(); i++) {
      scores.put(new String(zb.members().get(i), StandardCharsets.UTF_8), zb.scores()[i]);
    }
    assertThat(scores).hasSize(200).containsEntry("m0", 0.0).containsEntry("m199", 99.5);
  }

  @Test
  void valuesEncodeToRedisOwnBytes() throws IOException {
    // strings and blobs over 20 bytes are LZF-compressed as Redis's lzf_c.c does (list-big and
    // zset-big still differ: quicklist node split and skiplist order, not compression)
    for (String name : List.of("str-small", "str-int", "list-small", "hash-small", "zset-small", "str-big",
        "set-int", "hash-long", "str-21a", "str-text", "str-long-repeat", "str-random", "str-semi", "str-json",
        "str-long-runs")) {
      byte[] redis = resource("dump-" + name + ".bin");
      assertThat(DumpPayload.encode(DumpPayload.decode(redis))).as(name).isEqualTo(redis);
    }
  }

  @Test
  void everyValueSurvivesItsOwnRoundTrip() throws IOException {
    for (String name : List.of("str-big", "set-int", "hash-long", "list-big", "set-str", "set-big", "zset-big", "str-ex")) {
      RedisValue v = dump(name);
      assertThat(same(DumpPayload.decode(DumpPayload.encode(v)), v)).as(name).isTrue();
    }
    // the encodings the writer picks near Redis's thresholds, and integers of every width
    List<byte[]> ints = new ArrayList<>();
    for (long x : new long[] {0, 127, 128, -1, -4096, 4095, 4096, 32767, -32768, 8388607, -8388608, 2147483647,
        -2147483648L, Long.MAX_VALUE, Long.MIN_VALUE}) {
      ints.add(Long.toString(x).getBytes(StandardCharsets.US_ASCII));
    }
    ints.add("007".getBytes(StandardCharsets.US_ASCII)); // not canonical: stays a string
    ints.add("x".repeat(5000).getBytes(StandardCharsets.US_ASCII)); // 32-bit string length
    RedisValue list = new RedisValue.ListValue(ints);
    assertThat(same(DumpPayload.decode(DumpPayload.encode(list)), list)).isTrue();
    RedisValue set = new RedisValue.SetValue(ints.subList(0, 15)); // intset
    assertThat(DumpPayload.encode(set)[0]).isEqualTo((byte) RdbFormat.TYPE_SET_INTSET);
    assertThat(text(((RedisValue.SetValue) DumpPayload.decode(DumpPayload.encode(set))).members()))
        .containsExactlyInAnyOrderElementsOf(text(ints.subList(0, 15)));
    double[] odd = {Double.NEGATIVE_INFINITY, -0.1, 1e-300, 3.0e18, Double.POSITIVE_INFINITY};
    List<byte[]> members = new ArrayList<>();
    for (int i = 0; i < odd.length; i++) {
      members.add(("m" + i).getBytes(StandardCharsets.US_ASCII));
    }
    RedisValue zs = new RedisValue.ZSetValue(members, odd);
    assertThat(same(DumpPayload.decode(DumpPayload.encode(zs)), zs)).isTrue();
  }

  @Test
  void readsTheWholeRdbFileRedisSaved() throws IOException {
    Map<String, RedisValue> keys = new LinkedHashMap<>();
    Map<String, Long> expiries = new LinkedHashMap<>();
    Map<String, String> aux = new LinkedHashMap<>();
    int version = RdbFileReader.read(new ByteArrayInputStream(resource("redis-7.0.15.rdb")),
        new RdbFileReader.Visitor() {
          @Override
          public void entry(int db, byte[] key, RedisValue value, long expireAtMs) {
            String k = db + "/" + new String(key, StandardCharsets.UTF_8);
            keys.put(k, value);
            if (expireAtMs != 0) {
              expiries.put(k, expireAtMs);
            }
          }

          @Override
          public void aux(String key, String value) {
            aux.put(key, value);
          }
        });
    assertThat(version).isEqualTo(10);
    assertThat(aux).containsEntry("redis-ver", "7.0.15");
    assertThat(keys).hasSize(16).containsKeys("0/str:small", "0/list:big", "0/hash:big", "3/db3key");
    assertThat(expiries).containsExactly(Map.entry("0/str:ex", 4102444800000L));
    assertThat(((RedisValue.HashValue) keys.get("0/hash:big")).fields()).hasSize(200);

    // written again and read back: the same keys, values and expiry
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    RdbFileWriter w = new RdbFileWriter(copy);
    for (int db : new int[] {0, 3}) {
      w.startDb(db, 1, 0);
      for (Map.Entry<String, RedisValue> e : keys.entrySet()) {
        if (e.getKey().startsWith(db + "/")) {
          w.entry(e.getKey().substring(2).getBytes(StandardCharsets.UTF_8), e.getValue(),
              expiries.getOrDefault(e.getKey(), 0L));
        }
      }
    }
    w.finish();
    Map<String, RedisValue> again = new LinkedHashMap<>();
    RdbFileReader.read(new ByteArrayInputStream(copy.toByteArray()), (db, key, value, exp) -> {
      again.put(db + "/" + new String(key, StandardCharsets.UTF_8), value);
      if (new String(key, StandardCharsets.UTF_8).equals("str:ex")) {
        assertThat(exp).isEqualTo(4102444800000L);
      }
    });
    assertThat(again.keySet()).isEqualTo(keys.keySet());
    for (String k : keys.keySet()) {
      assertThat(same(again.get(k), keys.get(k))).as(k).isTrue();
    }
  }

  @Test
  void damageIsNamed() throws IOException {
    byte[] rdb = resource("redis-7.0.15.rdb");
    byte[] flipped = rdb.clone();
    flipped[rdb.length / 2] ^= 0x01;
    assertThatThrownBy(() -> RdbFileReader.read(new ByteArrayInputStream(flipped), (db, k, v, e) -> {}))
        .isInstanceOf(IOException.class);
    byte[] truncated = Arrays.copyOf(rdb, rdb.length - 100);
    assertThatThrownBy(() -> RdbFileReader.read(new ByteArrayInputStream(truncated), (db, k, v, e) -> {}))
        .hasMessageContaining("truncated");
    byte[] crc = rdb.clone();
    crc[rdb.length - 1] ^= 0x40;
    assertThatThrownBy(() -> RdbFileReader.read(new ByteArrayInputStream(crc), (db, k, v, e) -> {}))
        .hasMessageContaining("checksum failed");
    assertThatThrownBy(() -> RdbFileReader.read(new ByteArrayInputStream("PK\3\4 not rdb".getBytes(
        StandardCharsets.US_ASCII)), (db, k, v, e) -> {})).hasMessageContaining("not an RDB file");
    byte[] payload = resource("dump-hash-small.bin");
    payload[3] ^= 1;
    assertThat(DumpPayload.verify(payload)).isFalse();
    byte[] newer = resource("dump-str-small.bin");
    newer[newer.length - 10] = 11; // RDB version 11 (Redis 7.2): refused, as Redis 7.0 does
    assertThat(DumpPayload.verify(newer)).isFalse();
  }

  /** Same type and elements (sets, hashes and sorted sets in any order). */
  static boolean same(RedisValue a, RedisValue b) {
    if (a.getClass() != b.getClass()) {
      return false;
    }
    if (a instanceof RedisValue.Str s) {
      return Arrays.equals(s.value(), ((RedisValue.Str) b).value());
    }
    if (a instanceof RedisValue.ListValue l) {
      return text(l.elements()).equals(text(((RedisValue.ListValue) b).elements()));
    }
    if (a instanceof RedisValue.SetValue s) {
      return new java.util.HashSet<>(text(s.members())).equals(new java.util.HashSet<>(text(((RedisValue.SetValue) b).members())));
    }
    if (a instanceof RedisValue.HashValue h) {
      RedisValue.HashValue o = (RedisValue.HashValue) b;
      return pairs(h.fields(), h.values()).equals(pairs(o.fields(), o.values()));
    }
    RedisValue.ZSetValue z = (RedisValue.ZSetValue) a;
    RedisValue.ZSetValue o = (RedisValue.ZSetValue) b;
    Map<String, Double> x = new java.util.HashMap<>();
    Map<String, Double> y = new java.util.HashMap<>();
    for (int i = 0; i < z.members().size(); i++) {
      x.put(new String(z.members().get(i), StandardCharsets.UTF_8), z.scores()[i]);
    }
    for (int i = 0; i < o.members().size(); i++) {
      y.put(new String(o.members().get(i), StandardCharsets.UTF_8), o.scores()[i]);
    }
    return x.equals(y);
  }

  static Map<String, String> pairs(List<byte[]> f, List<byte[]> v) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < f.size(); i++) {
      m.put(new String(f.get(i), StandardCharsets.UTF_8), new String(v.get(i), StandardCharsets.UTF_8));
    }
    return m;
  }
}
