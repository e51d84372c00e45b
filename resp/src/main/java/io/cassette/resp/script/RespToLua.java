package io.cassette.resp.script;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A command's RESP reply, as redis.call hands it to the script (Redis 7.0's rules): integer:
 * number; bulk: string; null bulk or null array: false (RESP3 null: nil); status: {ok=s};
 * error: {err=s}; array: table; RESP3 map: {map={...}}, set: {set={k=true}}, double:
 * {double=n}, boolean: boolean, big number: {big_number=s}, verbatim: {verbatim_string=...}.
 * Attributes are skipped. The buffer holds exactly the replies of one command.
 */
final class RespToLua {
  private RespToLua() {}

  static LuaValue read(ByteBuf in) {
    byte type = in.readByte();
    switch (type) {
      case ':':
        return number(Long.parseLong(line(in)));
      case '$': {
        long len = Long.parseLong(line(in));
        if (len < 0) {
          return LuaValue.FALSE;
        }
        byte[] b = new byte[(int) len];
        in.readBytes(b);
        in.skipBytes(2);
        return LuaValue.valueOf(b);
      }
      case '+': {
        LuaTable t = new LuaTable();
        t.rawset("ok", LuaValue.valueOf(line(in)));
        return t;
      }
      case '-':
        return errorTable("-" + line(in));
      case '*': {
        long n = Long.parseLong(line(in));
        if (n < 0) {
          return LuaValue.FALSE;
        }
        LuaTable t = new LuaTable((int) Math.min(n, 1 << 16), 0);
        for (int i = 1; i <= n; i++) {
          t.rawset(i, read(in));
        }
        return t;
      }
      case '_':
        line(in);
        return LuaValue.NIL;
      case '#':
        return LuaValue.valueOf("t".equals(line(in)));
      case ',': {
        LuaTable t = new LuaTable();
        t.rawset("double", LuaValue.valueOf(parseDouble(line(in))));
        return t;
      }
      case '(': {
        LuaTable t = new LuaTable();
        t.rawset("big_number", LuaValue.valueOf(line(in)));
        return t;
      }
      case '=': {
        int len = Integer.parseInt(line(in));
        byte[] b = new byte[len];
        in.readBytes(b);
        in.skipBytes(2);
        LuaTable v = new LuaTable();
        v.rawset("format", LuaValue.valueOf(new String(b, 0, 3, StandardCharsets.ISO_8859_1)));
        v.rawset("string", LuaValue.valueOf(java.util.Arrays.copyOfRange(b, 4, b.length)));
        LuaTable t = new LuaTable();
        t.rawset("verbatim_string", v);
        return t;
      }
      case '%': {
        long n = Long.parseLong(line(in));
        LuaTable m = new LuaTable();
        for (long i = 0; i < n; i++) {
          LuaValue k = read(in);
          LuaValue v = read(in);
          m.rawset(k, v);
        }
        LuaTable t = new LuaTable();
        t.rawset("map", m);
        return t;
      }
      case '~': {
        long n = Long.parseLong(line(in));
        LuaTable s = new LuaTable();
        for (long i = 0; i < n; i++) {
          s.rawset(read(in), LuaValue.TRUE);
        }
        LuaTable t = new LuaTable();
        t.rawset("set", s);
        return t;
      }
      case '>': {
        long n = Long.parseLong(line(in));
        LuaTable t = new LuaTable();
        for (int i = 1; i <= n; i++) {
          t.rawset(i, read(in));
        }
        return t;
      }
      case '|': { // attribute: skipped, the value follows
        long n = Long.parseLong(line(in));
        for (long i = 0; i < 2 * n; i++) {
          read(in);
        }
        return read(in);
      }
      default:
        throw new IllegalStateException("unexpected reply type " + (char) type);
    }
  }

  /**
   * Redis's error table: "-CODE msg" keeps its code, a text without one gets "ERR"
   * (luaPushErrorBuff).
   */
  static LuaTable errorTable(String text) {
    String code;
    String msg;
    if (text.startsWith("-")) {
      int space = text.indexOf(' ');
      if (space < 0) {
        code = "ERR";
        msg = text.substring(1);
      } else {
        code = text.substring(1, space);
        msg = text.substring(space + 1);
      }
    } else {
      code = "ERR";
      msg = text;
    }
    msg = msg.replaceAll("[\\r\\n]+$", "").replaceAll("^[\\r\\n]+", "");
    LuaTable t = new LuaTable();
    t.rawset("err", LuaValue.valueOf(code + " " + msg));
    return t;
  }

  static LuaValue number(long n) {
    return n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE ? LuaValue.valueOf((int) n)
        : LuaValue.valueOf((double) n);
  }

  private static double parseDouble(String s) {
    return switch (s) {
      case "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> Double.parseDouble(s);
    };
  }

  private static String line(ByteBuf in) {
    int start = in.readerIndex();
    int end = in.indexOf(start, in.writerIndex(), (byte) '\r');
    String s = in.toString(start, end - start, StandardCharsets.UTF_8);
    in.readerIndex(end + 2);
    return s;
  }
}
