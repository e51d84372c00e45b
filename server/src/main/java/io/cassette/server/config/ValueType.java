package io.cassette.server.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kinds of value a configuration key takes, with Cassandra 5.0's notations: durations
 * such as {@code 10000ms} or {@code 10s}, sizes such as {@code 32MiB}, rates such as
 * {@code 64MiB/s}. Each parses text into a typed value or says what is allowed.
 */
enum ValueType {
  STRING("a string"),
  INT("an integer"),
  PORT("a port number from 0 (disabled) to 65535"),
  BOOLEAN("true or false"),
  DURATION("a duration such as 500ms, 10s, 5m, 1h or 1d"),
  DATA_SIZE("a size such as 512KiB, 32MiB or 1GiB (units B, KiB, MiB, GiB)"),
  DATA_RATE("a rate such as 64MiB/s (units B/s, KiB/s, MiB/s); 0MiB/s means unthrottled"),
  ENUM("one of the listed words"),
  STRING_LIST("a list of strings");

  private static final Pattern DURATION_FORMAT = Pattern.compile("(\\d+)(ms|s|m|h|d|us|µs|ns)");
  private static final Pattern SIZE_FORMAT = Pattern.compile("(\\d+)(B|KiB|MiB|GiB)");
  private static final Pattern RATE_FORMAT = Pattern.compile("(\\d+)(B|KiB|MiB)/s");

  /** What a user may write, for error messages. */
  final String allowed;

  ValueType(String allowed) {
    this.allowed = allowed;
  }

  /**
   * Parses {@code text}; throws IllegalArgumentException with a short reason when invalid.
   * Returns String, Integer, Boolean, Duration, Long (bytes or bytes/s) or List of String.
   */
  Object parse(String text, List<String> choices) {
    String t = text.trim();
    switch (this) {
      case STRING:
        return t;
      case INT:
        return parseInt(t);
      case PORT: {
        int port = parseInt(t);
        if (port < 0 || port > 65535) {
          throw new IllegalArgumentException("out of range");
        }
        return port;
      }
      case BOOLEAN:
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
          return Boolean.parseBoolean(t);
        }
        throw new IllegalArgumentException("not a boolean");
      case DURATION:
        return parseDuration(t);
      case DATA_SIZE:
        return parseScaled(SIZE_FORMAT, t);
      case DATA_RATE:
        return parseScaled(RATE_FORMAT, t);
      case ENUM: {
        String word = t.toLowerCase(Locale.ROOT);
        if (choices.contains(word)) {
          return word;
        }
        throw new IllegalArgumentException("not one of " + String.join(", ", choices));
      }
      case STRING_LIST: {
        List<String> items = new ArrayList<>();
        for (String part : t.split(",")) {
          if (!part.isBlank()) {
            items.add(part.trim());
          }
        }
        if (items.isEmpty()) {
          throw new IllegalArgumentException("empty list");
        }
        return List.copyOf(items);
      }
      default:
        throw new AssertionError(this);
    }
  }

  private static int parseInt(String t) {
    try {
      return Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not an integer");
    }
  }

  private static Duration parseDuration(String t) {
    Matcher m = DURATION_FORMAT.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration");
    }
    long n = parseAmount(m.group(1));
    switch (m.group(2)) {
      case "d": return Duration.ofDays(n);
      case "h": return Duration.ofHours(n);
      case "m": return Duration.ofMinutes(n);
      case "s": return Duration.ofSeconds(n);
      case "ms": return Duration.ofMillis(n);
      case "ns": return Duration.ofNanos(n);
      default: return Duration.ofNanos(n * 1000);
    }
  }

  private static long parseScaled(Pattern format, String t) {
    Matcher m = format.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException("bad unit");
    }
    long n = parseAmount(m.group(1));
    int shift = switch (m.group(2)) {
      case "KiB" -> 10;
      case "MiB" -> 20;
      case "GiB" -> 30;
      default -> 0;
    };
    if (n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("too large");
    }
    return n << shift;
  }

  private static long parseAmount(String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("too large");
    }
  }
}
