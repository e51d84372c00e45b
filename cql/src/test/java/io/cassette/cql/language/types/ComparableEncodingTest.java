package io.cassette.cql.language.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.language.schema.TimeUuid;
import io.cassette.storage.Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The clustering encoding must order bytes exactly as Cassandra orders values, stay
 * prefix-free, and decode back to the same serialized value, for every clusterable type.
 */
class ComparableEncodingTest {
  private final Random random = new Random(42);

  private void check(CqlType type, Supplier<byte[]> values) {
    List<byte[]> vs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      vs.add(values.get());
    }
    for (boolean desc : new boolean[] {false, true}) {
      for (int i = 0; i < vs.size(); i++) {
        byte[] a = vs.get(i);
        byte[] ea = ComparableEncoding.encode(type, a, desc);
        List<byte[]> decoded = ComparableEncoding.decode(ea, List.of(type), List.of(desc));
        assertThat(decoded.get(0)).as("round trip %s %s", Types.toCql(type), Bytes.hex(a)).isEqualTo(a);
        byte[] b = vs.get((i * 7 + 3) % vs.size());
        byte[] eb = ComparableEncoding.encode(type, b, desc);
        int expected = Integer.signum(ValueComparison.compare(type, a, b)) * (desc ? -1 : 1);
        assertThat(Integer.signum(Bytes.compare(ea, eb))).as("order %s %s vs %s", Types.toCql(type),
            Bytes.hex(a), Bytes.hex(b)).isEqualTo(expected);
        if (expected != 0) {
          assertThat(Bytes.startsWith(ea, eb) || Bytes.startsWith(eb, ea)).as("prefix-free").isFalse();
        }
      }
    }
  }

  @Test
  void nativeTypesOrderLikeCassandra() {
    check(Types.INT, () -> Values.ofInt(random.nextInt(2000) - 1000));
    check(Types.BIGINT, () -> Values.ofLong(random.nextLong()));
    check(Types.SMALLINT, () -> ByteBuffer.allocate(2).putShort((short) random.nextInt()).array());
    check(Types.TINYINT, () -> new byte[] {(byte) random.nextInt()});
    check(Types.TIMESTAMP, () -> Values.ofLong(random.nextLong() / 1000));
    check(Types.DOUBLE, () -> Values.ofDouble(random.nextInt(5) == 0 ? -0.0 : random.nextGaussian() * 1e6));
    check(Types.FLOAT, () -> Values.ofFloat((float) random.nextGaussian()));
    check(Types.BOOLEAN, () -> Values.ofBoolean(random.nextBoolean()));
    check(Types.DATE, () -> Values.ofInt(random.nextInt()));
    check(Types.TEXT, () -> Values.ofText(randomText()));
    check(Types.BLOB, () -> {
      byte[] b = new byte[random.nextInt(4)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) (random.nextInt(3) - 1);
      }
      return b;
    });
    check(Types.VARINT, () -> new BigInteger(random.nextInt(100) + 1, random).subtract(BigInteger.ONE.shiftLeft(50)).toByteArray());
    check(Types.DECIMAL, () -> Values.ofDecimal(new BigDecimal(BigInteger.valueOf(random.nextInt(20000) - 10000),
        random.nextInt(6) - 2)));
    check(Types.TIMEUUID, () -> Values.ofUuid(TimeUuid.of(random.nextInt(1000), random.nextLong())));
    check(Types.UUID, () -> random.nextBoolean() ? Values.ofUuid(UUID.randomUUID())
        : Values.ofUuid(TimeUuid.of(random.nextInt(1000), random.nextLong())));
    check(Types.INET, () -> new byte[] {127, 0, 0, (byte) random.nextInt()});
  }

  @Test
  void frozenCollectionsAndTuplesOrderElementWise() {
    CqlType list = new CqlType.ListType(Types.INT, true);
    check(list, () -> {
      List<byte[]> es = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        es.add(Values.ofInt(random.nextInt(5) - 2));
      }
      return CollectionCodec.pack(es);
    });
    CqlType tuple = new CqlType.TupleType(List.of(Types.TEXT, Types.BIGINT));
    check(tuple, () -> CollectionCodec.packFields(List.of(Values.ofText(randomText()),
        Values.ofLong(random.nextInt(3)))));
  }

  private String randomText() {
    StringBuilder sb = new StringBuilder();
    for (int i = random.nextInt(4); i > 0; i--) {
      sb.append("a\u0000zé".charAt(random.nextInt(4)));
    }
    return sb.toString();
  }

  @Test
  void durationsSerializeAsCassandraVInts() {
    Durations.Duration d = Durations.parse("1y2mo3w4d5h6m7s8ms9us10ns");
    assertThat(d.months()).isEqualTo(14);
    assertThat(d.days()).isEqualTo(25);
    assertThat(Durations.deserialize(d.serialize())).isEqualTo(d);
    assertThat(Durations.parse("-P1DT2H").toString()).isEqualTo("-1d2h");
    assertThat(Native.DURATION.optionId).isEqualTo(0x15);
  }
}
