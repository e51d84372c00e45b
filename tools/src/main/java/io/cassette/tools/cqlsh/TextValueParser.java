package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import com.datastax.oss.protocol.internal.util.Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.UUID;

/**
 * Turns the text of one CSV field back into the Java value the driver binds for a column type:
 * the inverse of {@link ValueFormatter} (so COPY TO then COPY FROM round-trips), plus the forms
 * Cassandra accepts (ISO timestamps, epoch milliseconds, lower-case booleans). Collections,
 * tuples, UDTs and vectors are CQL literals and go through the driver's codecs.
 */
final class TextValueParser {
  /** {@code 2024-01-02 03:04:05[.fraction][+0000]} or with a {@code T}; no zone means UTC. */
  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .appendPattern("yyyy-MM-dd")
      .optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .optionalStart()
      .appendPattern("HH:mm")
      .optionalStart().appendPattern(":ss").optionalEnd()
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
      .optionalEnd()
      .optionalStart().appendOffset("+HHmm", "Z").optionalEnd()
      .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
      .optionalStart().appendOffset("+HH", "Z").optionalEnd()
      .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
      .parseDefaulting(ChronoField.OFFSET_SECONDS, 0)
      .toFormatter(Locale.ROOT);

  private final CodecRegistry codecs;

  TextValueParser(CodecRegistry codecs) {
    this.codecs = codecs;
  }

  /**
   * @throws IllegalArgumentException naming the type and the text when it does not parse
   */
  Object parse(String text, DataType type) {
    try {
      return parseOrThrow(text.strip().isEmpty() && !isText(type) ? null : text, type);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Failed to parse '" + text + "' as " + type.asCql(false, true)
          + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
    }
  }

  private Object parseOrThrow(String text, DataType type) {
    if (text == null) {
      return null;
    }
    if (isText(type)) {
      return text;
    }
    String t = text.strip();
    if (type.equals(DataTypes.INT)) {
      return Integer.parseInt(t);
    } else if (type.equals(DataTypes.BIGINT) || type.equals(DataTypes.COUNTER)) {
      return Long.parseLong(t);
    } else if (type.equals(DataTypes.SMALLINT)) {
      return Short.parseShort(t);
    } else if (type.equals(DataTypes.TINYINT)) {
      return Byte.parseByte(t);
    } else if (type.equals(DataTypes.VARINT)) {
      return new BigInteger(t);
    } else if (type.equals(DataTypes.DECIMAL)) {
      return new BigDecimal(t);
    } else if (type.equals(DataTypes.DOUBLE)) {
      return Double.parseDouble(t);
    } else if (type.equals(DataTypes.FLOAT)) {
      return Float.parseFloat(t);
    } else if (type.equals(DataTypes.BOOLEAN)) {
      if (t.equalsIgnoreCase("true")) {
        return true;
      } else if (t.equalsIgnoreCase("false")) {
        return false;
      }
      throw new IllegalArgumentException("expected True or False");
    } else if (type.equals(DataTypes.UUID) || type.equals(DataTypes.TIMEUUID)) {
      return UUID.fromString(t);
    } else if (type.equals(DataTypes.TIMESTAMP)) {
      return timestamp(t);
    } else if (type.equals(DataTypes.DATE)) {
      return LocalDate.parse(t);
    } else if (type.equals(DataTypes.TIME)) {
      return LocalTime.parse(t);
    } else if (type.equals(DataTypes.BLOB)) {
      return Bytes.fromHexString(t);
    } else if (type.equals(DataTypes.INET)) {
      try {
        return InetAddress.getByName(t);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("not an IP address");
      }
    } else if (type.equals(DataTypes.DURATION)) {
      return CqlDuration.from(t);
    }
    return codecs.codecFor(type).parse(t);
  }

  static Instant timestamp(String t) {
    if (t.matches("-?\\d+")) {
      return Instant.ofEpochMilli(Long.parseLong(t));
    }
    try {
      return OffsetDateTime.parse(t, TIMESTAMP).toInstant();
    } catch (DateTimeParseException e) {
      return LocalDateTime.parse(t, TIMESTAMP).toInstant(ZoneOffset.UTC);
    }
  }

  private static boolean isText(DataType type) {
    return type.equals(DataTypes.TEXT) || type.equals(DataTypes.ASCII);
  }
}
