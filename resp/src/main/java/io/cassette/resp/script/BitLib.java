package io.cassette.resp.script;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Redis's {@code bit} library (LuaBitOp 1.0): 32-bit operations on numbers, results signed
 * as LuaBitOp returns them: tobit, tohex, bnot, band, bor, bxor, lshift, rshift, arshift,
 * rol, ror, bswap.
 */
final class BitLib {
  private BitLib() {}

  static LuaTable create() {
    LuaTable t = new LuaTable();
    t.rawset("tobit", op(1, a -> a[0]));
    t.rawset("bnot", op(1, a -> ~a[0]));
    t.rawset("band", fold((x, y) -> x & y));
    t.rawset("bor", fold((x, y) -> x | y));
    t.rawset("bxor", fold((x, y) -> x ^ y));
    t.rawset("lshift", op(2, a -> a[0] << (a[1] & 31)));
    t.rawset("rshift", op(2, a -> a[0] >>> (a[1] & 31)));
    t.rawset("arshift", op(2, a -> a[0] >> (a[1] & 31)));
    t.rawset("rol", op(2, a -> Integer.rotateLeft(a[0], a[1] & 31)));
    t.rawset("ror", op(2, a -> Integer.rotateRight(a[0], a[1] & 31)));
    t.rawset("bswap", op(1, a -> Integer.reverseBytes(a[0])));
    t.rawset("tohex", new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        int b = tobit(args.arg1());
        int n = args.isnoneornil(2) ? 8 : tobit(args.arg(2));
        String digits = "0123456789abcdef";
        if (n < 0) {
          n = -n;
          digits = "0123456789ABCDEF";
        }
        if (n > 8) {
          n = 8;
        }
        char[] out = new char[n];
        for (int i = n - 1; i >= 0; i--) {
          out[i] = digits.charAt(b & 15);
          b >>>= 4;
        }
        return LuaValue.valueOf(new String(out));
      }
    });
    return t;
  }

  /** LuaBitOp's number to 32 bits: the low 32 bits of the number, rounded as its add trick. */
  static int tobit(LuaValue v) {
    double d = v.checkdouble();
    double r = Math.rint(d);
    return (int) (long) (r % 4294967296.0);
  }

  private interface IntOp {
    int apply(int[] a);
  }

  private interface Fold {
    int apply(int x, int y);
  }

  private static VarArgFunction op(int n, IntOp f) {
    return new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = tobit(args.arg(i + 1));
        }
        return LuaValue.valueOf(f.apply(a));
      }
    };
  }

  private static VarArgFunction fold(Fold f) {
    return new VarArgFunction() {
      @Override
      public Varargs invoke(Varargs args) {
        int acc = tobit(args.arg1());
        for (int i = 2; i <= args.narg(); i++) {
          acc = f.apply(acc, tobit(args.arg(i)));
        }
        return LuaValue.valueOf(acc);
      }
    };
  }
}
