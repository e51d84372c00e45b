package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextValueParserTest {
  private final TextValueParser parser = new TextValueParser(CodecRegistry.DEFAULT);

  @Test
  void parsesWhatTheFormatterPrints() {
    Instant t = Instant.parse("2024-01-02T03:04:05.678Z");
    assertThat(parser.parse(ValueFormatter.format(t, DataTypes.TIMESTAMP), DataTypes.TIMESTAMP)).isEqualTo(t);
    assertThat(parser.parse("2024-01-02T03:04:05Z", DataTypes.TIMESTAMP)).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
    assertThat(parser.parse("2024-01-02", DataTypes.TIMESTAMP)).isEqualTo(Instant.parse("2024-01-02T00:00:00Z"));
    assertThat(parser.parse("1704164645678", DataTypes.TIMESTAMP)).isEqualTo(Instant.ofEpochMilli(1704164645678L));
    assertThat(parser.parse("True", DataTypes.BOOLEAN)).isEqualTo(true);
    assertThat(parser.parse("0x00ab", DataTypes.BLOB).toString()).contains("lim=2");
    assertThat(parser.parse("['a', 'b''c']", DataTypes.listOf(DataTypes.TEXT))).isEqualTo(List.of("a", "b'c"));
    assertThat(parser.parse("{'x': 1}", DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT))).isEqualTo(Map.of("x", 1));
    assertThat(parser.parse("  ", DataTypes.TEXT)).isEqualTo("  ");
    assertThat(parser.parse(" ", DataTypes.INT)).isNull();
  }

  @Test
  void badTextNamesTheTypeAndTheValue() {
    assertThatThrownBy(() -> parser.parse("twelve", DataTypes.INT))
        .hasMessageStartingWith("Failed to parse 'twelve' as int");
  }
}
