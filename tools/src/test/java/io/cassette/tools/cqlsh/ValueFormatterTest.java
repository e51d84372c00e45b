package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.type.DataTypes;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ValueFormatterTest {
  @Test
  void scalarsLookAsInCqlsh() throws Exception {
    assertThat(ValueFormatter.format(null, DataTypes.INT)).isEqualTo("null");
    assertThat(ValueFormatter.format("it's", DataTypes.TEXT)).isEqualTo("it's");
    assertThat(ValueFormatter.format("two\nlines", DataTypes.TEXT)).isEqualTo("two\\nlines");
    assertThat(ValueFormatter.format(true, DataTypes.BOOLEAN)).isEqualTo("True");
    assertThat(ValueFormatter.format(42L, DataTypes.BIGINT)).isEqualTo("42");
    assertThat(ValueFormatter.format(ByteBuffer.wrap(new byte[] {0, (byte) 0xab}), DataTypes.BLOB)).isEqualTo("0x00ab");
    assertThat(ValueFormatter.format(Instant.parse("2024-01-02T03:04:05.678Z"), DataTypes.TIMESTAMP))
        .isEqualTo("2024-01-02 03:04:05.678000+0000");
    assertThat(ValueFormatter.format(LocalDate.of(2024, 1, 2), DataTypes.DATE)).isEqualTo("2024-01-02");
    assertThat(ValueFormatter.format(LocalTime.of(3, 4, 5, 6), DataTypes.TIME)).isEqualTo("03:04:05.000000006");
    assertThat(ValueFormatter.format(InetAddress.getByName("10.0.0.1"), DataTypes.INET)).isEqualTo("10.0.0.1");
    UUID id = UUID.randomUUID();
    assertThat(ValueFormatter.format(id, DataTypes.UUID)).isEqualTo(id.toString());
  }

  @Test
  void floatsAndDoublesUseFiveSignificantDigitsPlusIntegerDigitsLikeCqlsh() {
    assertThat(ValueFormatter.format(1.5, DataTypes.DOUBLE)).isEqualTo("1.5");
    assertThat(ValueFormatter.format(1.0, DataTypes.DOUBLE)).isEqualTo("1");
    assertThat(ValueFormatter.format(3.14159265f, DataTypes.FLOAT)).isEqualTo("3.14159");
    assertThat(ValueFormatter.format(0.1f, DataTypes.FLOAT)).isEqualTo("0.1");
    assertThat(ValueFormatter.format(12345.6789, DataTypes.DOUBLE)).isEqualTo("12345.6789");
    assertThat(ValueFormatter.format(123456.789, DataTypes.DOUBLE)).isEqualTo("1.2346e+05");
    assertThat(ValueFormatter.format(1.5e20, DataTypes.DOUBLE)).isEqualTo("1.5e+20");
    assertThat(ValueFormatter.format(1.0e-7, DataTypes.DOUBLE)).isEqualTo("1e-07");
    assertThat(ValueFormatter.format(0.0, DataTypes.DOUBLE)).isEqualTo("0");
    assertThat(ValueFormatter.format(Double.NaN, DataTypes.DOUBLE)).isEqualTo("NaN");
    assertThat(ValueFormatter.format(Float.NEGATIVE_INFINITY, DataTypes.FLOAT)).isEqualTo("-Infinity");
  }

  @Test
  void collectionsQuoteTheirText() {
    assertThat(ValueFormatter.format(List.of("a", "b'c"), DataTypes.listOf(DataTypes.TEXT))).isEqualTo("['a', 'b''c']");
    assertThat(ValueFormatter.format(Set.of(1), DataTypes.setOf(DataTypes.INT))).isEqualTo("{1}");
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("x", 1);
    m.put("y", 2);
    assertThat(ValueFormatter.format(m, DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT))).isEqualTo("{'x': 1, 'y': 2}");
  }
}
