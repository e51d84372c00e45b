package io.cassette.resp.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Redis's {@code cjson} library (lua-cjson 2.1): encode, decode, {@code cjson.null} and the
 * configuration calls (encode_max_depth, decode_max_depth, encode_invalid_numbers,
 * decode_invalid_numbers, encode_keep_buffer, encode_number_precision, encode_sparse_array),
 * with lua-cjson's texts for what it refuses. Numbers are written as "%.14g".
 */
final class CJsonLib {
  /** JSON null, as lua-cjson's lightuserdata NULL. */
  static final LuaUserdata NULL = new LuaUserdata(new Object()) {
    @Override
    public String tojstring() {
      return "userdata: 0x0";
    }
  };

  private int encodeMaxDepth = 1000;
  private int decodeMaxDepth = 1000;
  /** 0: refuse NaN/Inf, 1: write them (nan, inf), 2: write null. */
  private int encodeInvalidNumbers;
  private boolean decodeInvalidNumbers = true;
  private int precision = 14;
  private boolean sparseConvert;
  private int sparseRatio = 2;
  private int sparseSafe = 10;

  private CJsonLib() {}

  static LuaTable create() {
    CJsonLib lib = new CJsonLib();
    LuaTable t = new LuaTable();
    t.rawset("encode", fn(a -> LuaValue.valueOf(
        lib.encode(a.arg1()).getBytes(StandardCharsets.ISO_8859_1))));
    t.rawset("decode", fn(a -> lib.decode(a.arg1())));
    t.rawset("null", NULL);
    t.rawset("_NAME", LuaValue.valueOf("cjson"));
    t.rawset("_VERSION", LuaValue.valueOf("2.1.0"));
    t.rawset("encode_max_depth", fn(a -> {
      if (!a.isnoneornil(1)) {
        lib.encodeMaxDepth = range(a.arg1(), 1, Integer.MAX_VALUE);
      }
      return LuaValue.valueOf(lib.encodeMaxDepth);
    }));
    t.rawset("decode_max_depth", fn(a -> {
      if (!a.isnoneornil(1)) {
        lib.decodeMaxDepth = range(a.arg1(), 1, Integer.MAX_VALUE);
      }
      return LuaValue.valueOf(lib.decodeMaxDepth);
    }));
    t.rawset("encode_number_precision", fn(a -> {
      if (!a.isnoneornil(1)) {
        lib.precision = range(a.arg1(), 1, 14);
      }
      return LuaValue.valueOf(lib.precision);
    }));
    t.rawset("encode_keep_buffer", fn(a -> a.isnoneornil(1) ? LuaValue.TRUE : a.arg1()));
    t.rawset("encode_invalid_numbers", fn(a -> {
      if (!a.isnoneornil(1)) {
        LuaValue v = a.arg1();
        lib.encodeInvalidNumbers = v.isstring() && "null".equals(v.tojstring()) ? 2
            : v.toboolean() ? 1 : 0;
      }
      return lib.encodeInvalidNumbers == 2 ? LuaValue.valueOf("null")
          : LuaValue.valueOf(lib.encodeInvalidNumbers == 1);
    }));
    t.rawset("decode_invalid_numbers", fn(a -> {
      if (!a.isnoneornil(1)) {
        lib.decodeInvalidNumbers = a.arg1().toboolean();
      }
      return LuaValue.valueOf(lib.decodeInvalidNumbers);
    }));
    t.rawset("encode_sparse_array", fn(a -> {
      if (!a.isnoneornil(1)) {
        lib.sparseConvert = a.arg1().toboolean();
      }
      if (!a.isnoneornil(2)) {
        lib.sparseRatio = range(a.arg(2), 0, Integer.MAX_VALUE);
      }
      if (!a.isnoneornil(3)) {
        lib.sparseSafe = range(a.arg(3), 0, Integer.MAX_VALUE);
      }
      return LuaValue.varargsOf(new LuaValue[] {LuaValue.valueOf(lib.sparseConvert),
          LuaValue.valueOf(lib.sparseRatio), LuaValue.valueOf(lib.sparseSafe)});
    }));
    return t;
  }

  private interface Body {
    Varargs apply(Varargs args);
  }

  private static VarArgFunction fn(Body body) {
    return new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return body.apply(args);
      }
    };
  }

  private static int range(LuaValue v, int min, int max) {
    int n = v.checkint();
    if (n < min || n > max) {
      throw new LuaError("bad argument #1 to '?' (expected integer between " + min + " and "
          + max + ")");
    }
    return n;
  }

  // ---- encode ----

  String encode(LuaValue v) {
    StringBuilder sb = new StringBuilder();
    encode(v, sb, 0);
    return sb.toString();
  }

  private void encode(LuaValue v, StringBuilder sb, int depth) {
    switch (v.type()) {
      case LuaValue.TNIL -> sb.append("null");
      case LuaValue.TBOOLEAN -> sb.append(v.toboolean() ? "true" : "false");
      case LuaValue.TNUMBER -> number(v.todouble(), sb);
      case LuaValue.TSTRING -> string(v.checkstring(), sb);
      case LuaValue.TTABLE -> table((LuaTable) v, sb, depth + 1);
      case LuaValue.TUSERDATA -> {
        if (v == NULL) {
          sb.append("null");
        } else {
          throw unsupported(v);
        }
      }
      default -> throw unsupported(v);
    }
  }

  private static LuaError unsupported(LuaValue v) {
    return new LuaError("Cannot serialise " + v.typename() + ": type not supported");
  }

  private void number(double d, StringBuilder sb) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      switch (encodeInvalidNumbers) {
        case 0 -> throw new LuaError("Cannot serialise number: must not be NaN or Inf");
        case 2 -> {
          sb.append("null");
          return;
        }
        default -> {
          sb.append(Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf");
          return;
        }
      }
    }
    sb.append(formatG(d, precision));
  }

  /** C's "%.{p}g". */
  static String formatG(double d, int p) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      long l = (long) d;
      String s = Long.toString(l);
      if (s.replace("-", "").length() <= p) {
        return d == 0 && 1 / d < 0 ? "-0" : s;
      }
    }
    String s = String.format(java.util.Locale.ROOT, "%." + p + "g", d);
    // Java's %g never uses the shortest form: strip zeros as C's %g does.
    int e = s.indexOf('e');
    String mant = e >= 0 ? s.substring(0, e) : s;
    String exp = e >= 0 ? s.substring(e) : "";
    if (mant.contains(".")) {
      mant = mant.replaceAll("0+$", "");
      if (mant.endsWith(".")) {
        mant = mant.substring(0, mant.length() - 1);
      }
    }
    if (!exp.isEmpty()) {
      // Java: e+05 style already; C uses at least two exponent digits, same.
      return mant + exp;
    }
    return mant;
  }

  private static void string(LuaString s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.m_length; i++) {
      int c = s.m_bytes[s.m_offset + i] & 0xFF;
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '/' -> sb.append("\\/");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\u%04x", c));
          } else {
            sb.append((char) c); // bytes kept as Latin-1 chars; re-encoded as bytes below
          }
        }
      }
    }
    sb.append('"');
  }

  private void table(LuaTable t, StringBuilder sb, int depth) {
    if (depth > encodeMaxDepth) {
      throw new LuaError("Cannot serialise, excessive nesting (" + depth + ")");
    }
    int arrayLength = arrayLength(t);
    if (arrayLength > 0) {
      sb.append('[');
      for (int i = 1; i <= arrayLength; i++) {
        if (i > 1) {
          sb.append(',');
        }
        encode(t.rawget(i), sb, depth);
      }
      sb.append(']');
      return;
    }
    sb.append('{');
    boolean first = true;
    LuaValue k = LuaValue.NIL;
    while (true) {
      Varargs next = t.next(k);
      if ((k = next.arg1()).isnil()) {
        break;
      }
      if (!first) {
        sb.append(',');
      }
      first = false;
      if (k.type() == LuaValue.TSTRING) {
        string(k.checkstring(), sb);
      } else if (k.type() == LuaValue.TNUMBER) {
        sb.append('"');
        number(k.todouble(), sb);
        sb.append('"');
      } else {
        throw new LuaError("Cannot serialise " + k.typename()
            + ": table key must be a number or string");
      }
      sb.append(':');
      encode(next.arg(2), sb, depth);
    }
    sb.append('}');
  }

  /** lua-cjson's array test: >0 when every key is a positive integer and not too sparse. */
  private int arrayLength(LuaTable t) {
    int max = 0;
    int items = 0;
    LuaValue k = LuaValue.NIL;
    while (true) {
      Varargs next = t.next(k);
      if ((k = next.arg1()).isnil()) {
        break;
      }
      if (k.type() != LuaValue.TNUMBER) {
        return -1;
      }
      double d = k.todouble();
      if (d != Math.rint(d) || d < 1) {
        return -1;
      }
      if (d > max) {
        max = (int) Math.min(d, Integer.MAX_VALUE);
      }
      items++;
    }
    if (sparseRatio > 0 && max > sparseSafe && max > items * sparseRatio) {
      if (!sparseConvert) {
        throw new LuaError("Cannot serialise table: excessively sparse array");
      }
      return -1;
    }
    return max;
  }

  // ---- decode ----

  LuaValue decode(LuaValue arg) {
    LuaString s = arg.checkstring();
    Parser p = new Parser(LuaToResp.bytes(s));
    p.skipSpace();
    LuaValue v = p.value(0);
    p.skipSpace();
    if (p.pos < p.in.length) {
      throw p.error("the end", p.tokenName());
    }
    return v;
  }

  private final class Parser {
    final byte[] in;
    int pos;

    Parser(byte[] in) {
      this.in = in;
    }

    void skipSpace() {
      while (pos < in.length && (in[pos] == ' ' || in[pos] == '\t' || in[pos] == '\n'
          || in[pos] == '\r')) {
        pos++;
      }
    }

    LuaError error(String expected, String found) {
      return new LuaError("Expected " + expected + " but found " + found + " at character "
          + (pos + 1));
    }

    String tokenName() {
      if (pos >= in.length) {
        return "T_END";
      }
      return "invalid token";
    }

    LuaValue value(int depth) {
      if (pos >= in.length) {
        throw error("value", "T_END");
      }
      byte c = in[pos];
      switch (c) {
        case '{':
          return object(depth + 1);
        case '[':
          return array(depth + 1);
        case '"':
          return LuaValue.valueOf(stringToken());
        case 't':
          return literal("true", LuaValue.TRUE);
        case 'f':
          return literal("false", LuaValue.FALSE);
        case 'n':
          if (pos + 2 < in.length && in[pos + 1] == 'a') {
            return numberToken();
          }
          return literal("null", NULL);
        default:
          if (c == '-' || (c >= '0' && c <= '9') || c == 'i' || c == 'I' || c == 'N') {
            return numberToken();
          }
          throw error("value", "invalid token");
      }
    }

    LuaValue literal(String word, LuaValue v) {
      byte[] w = word.getBytes(StandardCharsets.US_ASCII);
      if (pos + w.length > in.length) {
        throw error("value", "invalid token");
      }
      for (int i = 0; i < w.length; i++) {
        if (in[pos + i] != w[i]) {
          throw error("value", "invalid token");
        }
      }
      pos += w.length;
      return v;
    }

    LuaValue numberToken() {
      int start = pos;
      while (pos < in.length && "+-0123456789.eEinfatyINFATY".indexOf(in[pos]) >= 0) {
        pos++;
      }
      String s = new String(in, start, pos - start, StandardCharsets.US_ASCII);
      try {
        String lower = s.toLowerCase();
        double d;
        if (lower.matches("[-+]?(inf|infinity)")) {
          d = lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        } else if (lower.matches("[-+]?nan")) {
          d = Double.NaN;
        } else if (s.startsWith("0x") || s.startsWith("0X")) {
          throw new NumberFormatException();
        } else {
          d = Double.parseDouble(s);
        }
        if (!decodeInvalidNumbers && (Double.isNaN(d) || Double.isInfinite(d))) {
          pos = start;
          throw error("value", "invalid number");
        }
        return d == Math.rint(d) && Math.abs(d) <= Integer.MAX_VALUE ? LuaValue.valueOf((int) d)
            : LuaValue.valueOf(d);
      } catch (NumberFormatException e) {
        pos = start;
        throw error("value", "invalid number");
      }
    }

    byte[] stringToken() {
      int start = pos;
      pos++; // opening quote
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (true) {
        if (pos >= in.length) {
          pos = start;
          throw error("value", "invalid token");
        }
        byte c = in[pos++];
        if (c == '"') {
          return out.toByteArray();
        }
        if (c != '\\') {
          out.write(c);
          continue;
        }
        if (pos >= in.length) {
          pos = start;
          throw error("value", "invalid token");
        }
        byte e = in[pos++];
        switch (e) {
          case '"', '\\', '/' -> out.write(e);
          case 'b' -> out.write('\b');
          case 'f' -> out.write('\f');
          case 'n' -> out.write('\n');
          case 'r' -> out.write('\r');
          case 't' -> out.write('\t');
          case 'u' -> {
            int cp = hex4();
            if (cp >= 0xD800 && cp <= 0xDBFF && pos + 6 <= in.length && in[pos] == '\\'
                && in[pos + 1] == 'u') {
              pos += 2;
              int low = hex4();
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            byte[] utf8 = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
            out.write(utf8, 0, utf8.length);
          }
          default -> {
            pos = start;
            throw error("value", "invalid escape code");
          }
        }
      }
    }

    int hex4() {
      if (pos + 4 > in.length) {
        throw error("value", "invalid unicode escape code");
      }
      int v = 0;
      for (int i = 0; i < 4; i++) {
        int d = Character.digit(in[pos++], 16);
        if (d < 0) {
          throw error("value", "invalid unicode escape code");
        }
        v = v * 16 + d;
      }
      return v;
    }

    LuaValue object(int depth) {
      if (depth > decodeMaxDepth) {
        throw new LuaError("Found too many nested data structures (" + depth
            + ") at character " + (pos + 1));
      }
      pos++;
      LuaTable t = new LuaTable();
      skipSpace();
      if (pos < in.length && in[pos] == '}') {
        pos++;
        return t;
      }
      while (true) {
        skipSpace();
        if (pos >= in.length || in[pos] != '"') {
          throw error("object key string", tokenName());
        }
        LuaValue key = LuaValue.valueOf(stringToken());
        skipSpace();
        if (pos >= in.length || in[pos] != ':') {
          throw error("colon", tokenName());
        }
        pos++;
        skipSpace();
        t.rawset(key, value(depth));
        skipSpace();
        if (pos < in.length && in[pos] == ',') {
          pos++;
          continue;
        }
        if (pos < in.length && in[pos] == '}') {
          pos++;
          return t;
        }
        throw error("comma or object end", tokenName());
      }
    }

    LuaValue array(int depth) {
      if (depth > decodeMaxDepth) {
        throw new LuaError("Found too many nested data structures (" + depth
            + ") at character " + (pos + 1));
      }
      pos++;
      LuaTable t = new LuaTable();
      skipSpace();
      if (pos < in.length && in[pos] == ']') {
        pos++;
        return t;
      }
      for (int i = 1; ; i++) {
        skipSpace();
        t.rawset(i, value(depth));
        skipSpace();
        if (pos < in.length && in[pos] == ',') {
          pos++;
          continue;
        }
        if (pos < in.length && in[pos] == ']') {
          pos++;
          return t;
        }
        throw error("comma or array end", tokenName());
      }
    }
  }
}
