package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Values as cqlsh prints them: text bare at top level and single-quoted inside collections,
 * {@code True}/{@code False}, blobs as {@code 0x...}, timestamps as
 * {@code 2024-01-02 03:04:05.678000+0000} (UTC), floats and doubles with 5 significant digits (more
 * left of the point), collections as {@code [..]}, {@code {..}}, {@code {k: v}}, tuples as {@code (..)}.
 * Stateless and thread-safe.
 */
final class ValueFormatter {
  /** cqlsh's DEFAULT_FLOAT_PRECISION. */
  static final int FLOAT_PRECISION = 5;
  /** cqlsh's DEFAULT_DOUBLE_PRECISION. */
  static final int DOUBLE_PRECISION = 5;
  /** cqlsh's default time_format, '%Y-%m-%d %H:%M:%S.%f%z'. */
  static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSxx", Locale.ROOT).withZone(ZoneOffset.UTC);

  private ValueFormatter() {}

  /** A top-level value ({@code null} prints as "null"). */
  static String format(Object value, DataType type) {
    return format(value, type, false);
  }

  private static String format(Object value, DataType type, boolean nested) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return nested ? "'" + s.replace("'", "''") + "'" : escapeControl(s);
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof ByteBuffer b) {
      return blob(b);
    }
    if (value instanceof Double d) {
      return floating(d, DOUBLE_PRECISION);
    }
    if (value instanceof Float f) {
      return floating(f.doubleValue(), FLOAT_PRECISION);
    }
    if (value instanceof Instant t) {
      return TIMESTAMP.format(t);
    }
    if (value instanceof LocalDate d) {
      return d.toString();
    }
    if (value instanceof LocalTime t) {
      return String.format(Locale.ROOT, "%02d:%02d:%02d.%09d", t.getHour(), t.getMinute(),
          t.getSecond(), t.getNano());
    }
    if (value instanceof InetAddress a) {
      return a.getHostAddress();
    }
    if (value instanceof CqlDuration d) {
      return d.toString();
    }
    if (value instanceof BigDecimal d) {
      return d.toString();
    }
    if (value instanceof Map<?, ?> m) {
      DataType kt = type instanceof MapType mt ? mt.getKeyType() : null;
      DataType vt = type instanceof MapType mt ? mt.getValueType() : null;
      StringBuilder out = new StringBuilder("{");
      for (Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<?, ?> e = it.next();
        out.append(format(e.getKey(), kt, true)).append(": ").append(format(e.getValue(), vt, true));
        if (it.hasNext()) {
          out.append(", ");
        }
      }
      return out.append('}').toString();
    }
    if (value instanceof List<?> l) {
      DataType et = type instanceof ListType lt ? lt.getElementType() : null;
      return join("[", l, et, "]");
    }
    if (value instanceof Collection<?> s) {
      DataType et = type instanceof SetType st ? st.getElementType() : null;
      return join("{", s, et, "}");
    }
    if (value instanceof CqlVector<?> v) {
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < v.size(); i++) {
        Object e = v.get(i);
        out.append(i == 0 ? "" : ", ").append(format(e, null, true));
      }
      return out.append(']').toString();
    }
    if (value instanceof UdtValue u) {
      UserDefinedType ut = u.getType();
      StringBuilder out = new StringBuilder("{");
      for (int i = 0; i < u.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(ut.getFieldNames().get(i).asCql(true)).append(": ")
            .append(format(u.getObject(i), ut.getFieldTypes().get(i), true));
      }
      return out.append('}').toString();
    }
    if (value instanceof TupleValue t) {
      TupleType tt = t.getType();
      StringBuilder out = new StringBuilder("(");
      for (int i = 0; i < t.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(format(t.getObject(i), tt.getComponentTypes().get(i), true));
      }
      return out.append(')').toString();
    }
    return value.toString();
  }

  private static String join(String open, Collection<?> items, DataType type, String close) {
    StringBuilder out = new StringBuilder(open);
    boolean first = true;
    for (Object o : items) {
      out.append(first ? "" : ", ").append(format(o, type, true));
      first = false;
    }
    return out.append(close).toString();
  }

  static String blob(ByteBuffer b) {
    StringBuilder out = new StringBuilder(2 + b.remaining() * 2).append("0x");
    for (int i = b.position(); i < b.limit(); i++) {
      out.append(Character.forDigit((b.get(i) >> 4) & 0xf, 16)).append(Character.forDigit(b.get(i) & 0xf, 16));
    }
    return out.toString();
  }

  /** Python's {@code '%.*g' % (precision + digits left of the point, value)}, as cqlsh does. */
  static String floating(double v, int precision) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "Infinity" : "-Infinity";
    }
    if (v == 0) {
      return (1 / v < 0) ? "-0" : "0";
    }
    int exponent = (int) Math.floor(Math.log10(Math.abs(v)));
    int digits = precision;
    if (exponent >= -4 && exponent < precision) {
      digits = precision + Math.max(exponent, 0) + 1;
    }
    BigDecimal rounded = new BigDecimal(v).round(new MathContext(digits));
    int exp = rounded.precision() - rounded.scale() - 1;
    if (exp < -4 || exp >= digits) {
      BigDecimal mantissa = rounded.movePointLeft(exp).stripTrailingZeros();
      String m = mantissa.toPlainString();
      return m + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }
    return rounded.stripTrailingZeros().toPlainString();
  }

  /** cqlsh shows control characters escaped so one row stays on one line. */
  private static String escapeControl(String s) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        if (out == null) {
          out = new StringBuilder(s.length() + 8).append(s, 0, i);
        }
        switch (c) {
          case '\n' -> out.append("\\n");
          case '\t' -> out.append("\\t");
          case '\r' -> out.append("\\r");
          default -> out.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
        }
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? s : out.toString();
  }
}
