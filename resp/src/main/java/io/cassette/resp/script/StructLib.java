package io.cassette.resp.script;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Redis's {@code struct} library (Roberto Ierusalimschy's struct.c): pack, unpack, size with
 * the formats {@code < > !} (endianness; alignment is accepted and ignored), {@code b B h H
 * l L T i[n] I[n]} integers, {@code f d} floats, {@code s} zero-terminated strings,
 * {@code c[n]} fixed strings ({@code c0}: the length is the previous value), {@code x} a
 * padding byte. Little-endian by default, as on the machines Redis runs on.
 */
final class StructLib {
  private StructLib() {}

  static LuaTable create() {
    LuaTable t = new LuaTable();
    t.rawset("pack", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return LuaValue.valueOf(pack(args.checkjstring(1), args));
      }
    });
    t.rawset("unpack", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return unpack(args.checkjstring(1), LuaToResp.bytes(args.checkstring(2)),
            args.optint(3, 1));
      }
    });
    t.rawset("size", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        String fmt = args.checkjstring(1);
        int size = 0;
        for (int i = 0; i < fmt.length(); i++) {
          char c = fmt.charAt(i);
          int[] n = {i};
          int s = width(fmt, n, c);
          i = n[0];
          if (c == 's' || (c == 'c' && s == 0)) {
            throw new LuaError("options 'c0' - 's' have undefined sizes");
          }
          size += s;
        }
        return LuaValue.valueOf(size);
      }
    });
    return t;
  }

  /** Bytes of option {@code c} at fmt[n[0]], reading its optional count; n[0] ends on the last digit. */
  private static int width(String fmt, int[] n, char c) {
    int i = n[0];
    int count = -1;
    while (i + 1 < fmt.length() && Character.isDigit(fmt.charAt(i + 1))) {
      count = (count < 0 ? 0 : count * 10) + (fmt.charAt(++i) - '0');
    }
    n[0] = i;
    return switch (c) {
      case 'b', 'B', 'x' -> 1;
      case 'h', 'H' -> 2;
      case 'l', 'L', 'T', 'd' -> 8;
      case 'f' -> 4;
      case 'i', 'I' -> count < 0 ? 4 : count;
      case 'c' -> count < 0 ? 1 : count;
      case 's', '<', '>', '!', '=', ' ' -> 0;
      default -> throw new LuaError("invalid format option '" + c + "'");
    };
  }

  private static byte[] pack(String fmt, Varargs args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean little = true;
    int arg = 2;
    for (int i = 0; i < fmt.length(); i++) {
      char c = fmt.charAt(i);
      int[] n = {i};
      int w = width(fmt, n, c);
      i = n[0];
      switch (c) {
        case '<', '=' -> little = true;
        case '>' -> little = false;
        case 'x' -> out.write(0);
        case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I' -> {
          long v = (long) args.checkdouble(arg++);
          for (int k = 0; k < w; k++) {
            int shift = 8 * (little ? k : w - 1 - k);
            out.write(shift < 64 ? (int) (v >>> shift) & 0xff : (v < 0 ? 0xff : 0));
          }
        }
        case 'f', 'd' -> {
          double d = args.checkdouble(arg++);
          long bits = c == 'f' ? Float.floatToIntBits((float) d) & 0xffffffffL
              : Double.doubleToLongBits(d);
          for (int k = 0; k < w; k++) {
            out.write((int) (bits >>> (8 * (little ? k : w - 1 - k))) & 0xff);
          }
        }
        case 'c', 's' -> {
          byte[] s = LuaToResp.bytes(args.checkstring(arg++));
          int len = c == 's' || w == 0 ? s.length : w;
          if (s.length < len && c == 'c') {
            throw new LuaError("bad argument #" + (arg - 1) + " to 'pack' (string too short)");
          }
          out.write(s, 0, len);
          if (c == 's') {
            out.write(0);
          }
        }
        default -> { }
      }
    }
    return out.toByteArray();
  }

  private static Varargs unpack(String fmt, byte[] data, int start) {
    List<LuaValue> values = new ArrayList<>();
    boolean little = true;
    int pos = start - 1;
    long last = 0;
    for (int i = 0; i < fmt.length(); i++) {
      char c = fmt.charAt(i);
      int[] n = {i};
      int w = width(fmt, n, c);
      i = n[0];
      switch (c) {
        case '<', '=' -> little = true;
        case '>' -> little = false;
        case 'x' -> pos++;
        case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I' -> {
          need(data, pos, w);
          long v = 0;
          for (int k = 0; k < w; k++) {
            int b = data[pos + (little ? w - 1 - k : k)] & 0xff;
            v = (v << 8) | b;
          }
          boolean signed = Character.isLowerCase(c);
          if (signed && w < 8) {
            long sign = 1L << (8 * w - 1);
            v = (v ^ sign) - sign;
          }
          pos += w;
          last = v;
          values.add(LuaValue.valueOf((double) v));
        }
        case 'f', 'd' -> {
          need(data, pos, w);
          long bits = 0;
          for (int k = 0; k < w; k++) {
            bits = (bits << 8) | (data[pos + (little ? w - 1 - k : k)] & 0xff);
          }
          pos += w;
          values.add(LuaValue.valueOf(c == 'f' ? Float.intBitsToFloat((int) bits)
              : Double.longBitsToDouble(bits)));
        }
        case 'c' -> {
          int len = w == 0 ? (int) last : w;
          need(data, pos, len);
          values.add(LuaValue.valueOf(java.util.Arrays.copyOfRange(data, pos, pos + len)));
          pos += len;
        }
        case 's' -> {
          int end = pos;
          while (end < data.length && data[end] != 0) {
            end++;
          }
          if (end >= data.length) {
            throw new LuaError("unfinished string for format 's'");
          }
          values.add(LuaValue.valueOf(java.util.Arrays.copyOfRange(data, pos, end)));
          pos = end + 1;
        }
        default -> { }
      }
    }
    values.add(LuaValue.valueOf(pos + 1));
    return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
  }

  private static void need(byte[] data, int pos, int n) {
    if (pos < 0 || pos + n > data.length) {
      throw new LuaError("bad argument #2 to 'unpack' (data string too short)");
    }
  }
}
