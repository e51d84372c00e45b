package io.cassette.resp.script;

import java.io.ByteArrayOutputStream;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Redis's {@code cmsgpack} library (lua-cmsgpack 0.4): pack, unpack, unpack_one,
 * unpack_limit. Integral numbers use the smallest MessagePack integer, others float 32 when
 * exact, else float 64; tables whose keys are 1..n are arrays, others maps; nesting deeper
 * than 16 is packed as nil (as lua-cmsgpack does, so circular tables end).
 */
final class CMsgPackLib {
  static final int MAX_NESTING = 16;

  private CMsgPackLib() {}

  static LuaTable create() {
    LuaTable t = new LuaTable();
    t.rawset("pack", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        if (args.narg() == 0) {
          throw new LuaError("MessagePack pack needs input.");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 1; i <= args.narg(); i++) {
          pack(args.arg(i), out, 0);
        }
        return LuaValue.valueOf(out.toByteArray());
      }
    });
    t.rawset("unpack", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return unpack(args.checkstring(1), 0, 0, false);
      }
    });
    t.rawset("unpack_one", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return unpack(args.checkstring(1), 1, args.optint(2, 0), true);
      }
    });
    t.rawset("unpack_limit", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        return unpack(args.checkstring(1), args.checkint(2), args.optint(3, 0), true);
      }
    });
    t.rawset("_NAME", LuaValue.valueOf("cmsgpack"));
    t.rawset("_VERSION", LuaValue.valueOf("lua-cmsgpack 0.4.0"));
    return t;
  }

  static void pack(LuaValue v, ByteArrayOutputStream out, int level) {
    switch (v.type()) {
      case LuaValue.TSTRING -> {
        byte[] b = LuaToResp.bytes(v.checkstring());
        int n = b.length;
        if (n < 32) {
          out.write(0xa0 | n);
        } else if (n <= 0xff) {
          out.write(0xd9);
          out.write(n);
        } else if (n <= 0xffff) {
          out.write(0xda);
          be(out, n, 2);
        } else {
          out.write(0xdb);
          be(out, n, 4);
        }
        out.write(b, 0, n);
      }
      case LuaValue.TBOOLEAN -> out.write(v.toboolean() ? 0xc3 : 0xc2);
      case LuaValue.TNUMBER -> number(v.todouble(), out);
      case LuaValue.TTABLE -> {
        if (level >= MAX_NESTING) {
          out.write(0xc0);
          return;
        }
        LuaTable t = (LuaTable) v;
        int n = arrayLength(t);
        if (n >= 0) {
          header(out, n, 0x90, 0xdc, 0xdd);
          for (int i = 1; i <= n; i++) {
            pack(t.rawget(i), out, level + 1);
          }
        } else {
          int count = 0;
          LuaValue k = LuaValue.NIL;
          while (!(k = t.next(k).arg1()).isnil()) {
            count++;
          }
          header(out, count, 0x80, 0xde, 0xdf);
          k = LuaValue.NIL;
          while (true) {
            Varargs next = t.next(k);
            if ((k = next.arg1()).isnil()) {
              break;
            }
            pack(k, out, level + 1);
            pack(next.arg(2), out, level + 1);
          }
        }
      }
      default -> out.write(0xc0);
    }
  }

  private static void header(ByteArrayOutputStream out, int n, int fix, int b16, int b32) {
    if (n < 16) {
      out.write(fix | n);
    } else if (n <= 0xffff) {
      out.write(b16);
      be(out, n, 2);
    } else {
      out.write(b32);
      be(out, n, 4);
    }
  }

  /** Keys exactly 1..n: an array of n; else -1. An empty table is an array. */
  private static int arrayLength(LuaTable t) {
    int count = 0;
    long max = 0;
    LuaValue k = LuaValue.NIL;
    while (!(k = t.next(k).arg1()).isnil()) {
      if (k.type() != LuaValue.TNUMBER) {
        return -1;
      }
      double d = k.todouble();
      if (d != Math.rint(d) || d < 1) {
        return -1;
      }
      max = Math.max(max, (long) d);
      count++;
    }
    return max == count ? count : -1;
  }

  private static void number(double d, ByteArrayOutputStream out) {
    if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 9.3e18) {
      long l = (long) d;
      if (l >= 0) {
        if (l < 128) {
          out.write((int) l);
        } else if (l <= 0xff) {
          out.write(0xcc);
          out.write((int) l);
        } else if (l <= 0xffff) {
          out.write(0xcd);
          be(out, l, 2);
        } else if (l <= 0xffffffffL) {
          out.write(0xce);
          be(out, l, 4);
        } else {
          out.write(0xcf);
          be(out, l, 8);
        }
      } else if (l >= -32) {
        out.write((int) (l & 0xff));
      } else if (l >= -128) {
        out.write(0xd0);
        out.write((int) (l & 0xff));
      } else if (l >= -32768) {
        out.write(0xd1);
        be(out, l, 2);
      } else if (l >= Integer.MIN_VALUE) {
        out.write(0xd2);
        be(out, l, 4);
      } else {
        out.write(0xd3);
        be(out, l, 8);
      }
      return;
    }
    if ((double) (float) d == d || Double.isNaN(d)) {
      out.write(0xca);
      be(out, Float.floatToIntBits((float) d), 4);
    } else {
      out.write(0xcb);
      be(out, Double.doubleToLongBits(d), 8);
    }
  }

  private static void be(ByteArrayOutputStream out, long v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
      out.write((int) (v >>> (8 * i)) & 0xff);
    }
  }

  /** Up to {@code limit} values (0: all) from {@code offset}; with offsets: next offset first. */
  private static Varargs unpack(org.luaj.vm2.LuaString s, int limit, int offset,
                                boolean withOffset) {
    byte[] b = LuaToResp.bytes(s);
    if (offset < 0 || offset > b.length) {
      throw new LuaError("Start offset " + offset + " greater than input length " + b.length
          + ".");
    }
    Reader r = new Reader(b, offset);
    java.util.List<LuaValue> values = new java.util.ArrayList<>();
    while (r.pos < b.length && (limit <= 0 || values.size() < limit)) {
      values.add(r.value());
    }
    if (!withOffset) {
      return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }
    LuaValue[] out = new LuaValue[values.size() + 1];
    out[0] = LuaValue.valueOf(r.pos >= b.length ? -1 : r.pos);
    for (int i = 0; i < values.size(); i++) {
      out[i + 1] = values.get(i);
    }
    return LuaValue.varargsOf(out);
  }

  private static final class Reader {
    final byte[] b;
    int pos;

    Reader(byte[] b, int pos) {
      this.b = b;
      this.pos = pos;
    }

    long u(int n) {
      if (pos + n > b.length) {
        throw new LuaError("Missing bytes in input.");
      }
      long v = 0;
      for (int i = 0; i < n; i++) {
        v = (v << 8) | (b[pos++] & 0xff);
      }
      return v;
    }

    LuaValue str(int n) {
      if (pos + n > b.length || n < 0) {
        throw new LuaError("Missing bytes in input.");
      }
      LuaValue v = LuaValue.valueOf(java.util.Arrays.copyOfRange(b, pos, pos + n));
      pos += n;
      return v;
    }

    LuaValue num(double d) {
      return d == Math.rint(d) && Math.abs(d) <= Integer.MAX_VALUE ? LuaValue.valueOf((int) d)
          : LuaValue.valueOf(d);
    }

    LuaValue value() {
      int c = (int) u(1);
      if (c < 0x80) {
        return LuaValue.valueOf(c);
      }
      if (c >= 0xe0) {
        return LuaValue.valueOf(c - 256);
      }
      if ((c & 0xe0) == 0xa0) {
        return str(c & 0x1f);
      }
      if ((c & 0xf0) == 0x90) {
        return array(c & 0x0f);
      }
      if ((c & 0xf0) == 0x80) {
        return map(c & 0x0f);
      }
      return switch (c) {
        case 0xc0 -> LuaValue.NIL;
        case 0xc2 -> LuaValue.FALSE;
        case 0xc3 -> LuaValue.TRUE;
        case 0xca -> num(Float.intBitsToFloat((int) u(4)));
        case 0xcb -> num(Double.longBitsToDouble(u(8)));
        case 0xcc -> num(u(1));
        case 0xcd -> num(u(2));
        case 0xce -> num(u(4));
        case 0xcf -> num(u(8));
        case 0xd0 -> num((byte) u(1));
        case 0xd1 -> num((short) u(2));
        case 0xd2 -> num((int) u(4));
        case 0xd3 -> num(u(8));
        case 0xd9, 0xc4 -> str((int) u(1));
        case 0xda, 0xc5 -> str((int) u(2));
        case 0xdb, 0xc6 -> str((int) u(4));
        case 0xdc -> array((int) u(2));
        case 0xdd -> array((int) u(4));
        case 0xde -> map((int) u(2));
        case 0xdf -> map((int) u(4));
        default -> throw new LuaError("Bad data format in input.");
      };
    }

    LuaValue array(int n) {
      LuaTable t = new LuaTable();
      for (int i = 1; i <= n; i++) {
        t.rawset(i, value());
      }
      return t;
    }

    LuaValue map(int n) {
      LuaTable t = new LuaTable();
      for (int i = 0; i < n; i++) {
        LuaValue k = value();
        LuaValue v = value();
        if (!k.isnil()) {
          t.rawset(k, v);
        }
      }
      return t;
    }
  }
}
