package io.cassette.resp.script;

import io.cassette.resp.protocol.Reply;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A script's return value as a Redis reply, by Redis 7.0's rules (luaReplyToRedisReply):
 * string: bulk; number: integer (truncated); true: 1 (RESP3 with setresp(3): #t); false and
 * nil: null; a table with {@code err}: an error, with {@code ok}: a status, with
 * {@code double}/{@code map}/{@code set}/{@code big_number}/{@code verbatim_string}: the RESP3
 * types; any other table: an array of its elements 1..n up to the first nil. Fields are read
 * raw (a metatable is never called).
 */
final class LuaToResp {
  /** Nesting deeper than this is refused, as Redis's Lua stack limit does. */
  static final int MAX_DEPTH = 1000;

  private LuaToResp() {}

  /**
   * Writes {@code v} to {@code out}. {@code scriptResp} is the script's redis.setresp version
   * (booleans are RESP3 booleans only when the script chose RESP3).
   */
  static void write(LuaValue v, Reply out, int scriptResp) {
    write(v, out, scriptResp, 0);
  }

  private static void write(LuaValue v, Reply out, int resp, int depth) {
    switch (v.type()) {
      case LuaValue.TSTRING -> out.bulk(bytes(v.checkstring()));
      case LuaValue.TBOOLEAN -> {
        if (resp == 2) {
          if (v.toboolean()) {
            out.integer(1);
          } else {
            out.nullBulk();
          }
        } else {
          out.bool(v.toboolean());
        }
      }
      case LuaValue.TNUMBER -> out.integer((long) v.todouble());
      case LuaValue.TTABLE -> table((LuaTable) v, out, resp, depth);
      default -> out.nullBulk();
    }
  }

  private static void table(LuaTable t, Reply out, int resp, int depth) {
    if (depth >= MAX_DEPTH) {
      out.error("ERR reached lua stack limit");
      return;
    }
    LuaValue err = t.rawget("err");
    if (err.isstring()) {
      out.error(errorText(err.tojstring()));
      return;
    }
    LuaValue ok = t.rawget("ok");
    if (ok.isstring()) {
      out.status(ok.tojstring().replace('\r', ' ').replace('\n', ' '));
      return;
    }
    LuaValue d = t.rawget("double");
    if (d.type() == LuaValue.TNUMBER) {
      out.doubleValue(d.todouble());
      return;
    }
    LuaValue big = t.rawget("big_number");
    if (big.isstring()) {
      if (out.resp3()) {
        out.buffer().writeByte('(');
        out.buffer().writeCharSequence(big.tojstring().replace('\r', ' ').replace('\n', ' '),
            StandardCharsets.UTF_8);
        out.buffer().writeBytes(new byte[] {'\r', '\n'});
      } else {
        out.bulk(bytes(big.checkstring()));
      }
      return;
    }
    LuaValue map = t.rawget("map");
    if (map.istable()) {
      LuaTable m = (LuaTable) map;
      int n = count(m);
      out.map(n);
      LuaValue k = LuaValue.NIL;
      while (true) {
        var next = m.next(k);
        if ((k = next.arg1()).isnil()) {
          break;
        }
        write(k, out, resp, depth + 1);
        write(next.arg(2), out, resp, depth + 1);
      }
      return;
    }
    LuaValue set = t.rawget("set");
    if (set.istable()) {
      LuaTable s = (LuaTable) set;
      out.set(count(s));
      LuaValue k = LuaValue.NIL;
      while (true) {
        var next = s.next(k);
        if ((k = next.arg1()).isnil()) {
          break;
        }
        write(k, out, resp, depth + 1);
      }
      return;
    }
    LuaValue verbatim = t.rawget("verbatim_string");
    if (verbatim.istable()) {
      LuaValue text = verbatim.rawget("string");
      LuaValue format = verbatim.rawget("format");
      if (text.isstring() && format.isstring()) {
        if (out.resp3()) {
          byte[] body = bytes(text.checkstring());
          byte[] f = bytes(format.checkstring());
          out.buffer().writeByte('=');
          out.buffer().writeCharSequence(Integer.toString(body.length + 4), StandardCharsets.US_ASCII);
          out.buffer().writeBytes(new byte[] {'\r', '\n'});
          out.buffer().writeBytes(f, 0, Math.min(3, f.length));
          out.buffer().writeByte(':');
          out.buffer().writeBytes(body);
          out.buffer().writeBytes(new byte[] {'\r', '\n'});
        } else {
          out.bulk(bytes(text.checkstring()));
        }
        return;
      }
    }
    int n = 0;
    while (!t.rawget(n + 1).isnil()) {
      n++;
    }
    out.array(n);
    for (int i = 1; i <= n; i++) {
      write(t.rawget(i), out, resp, depth + 1);
    }
  }

  private static int count(LuaTable t) {
    int n = 0;
    LuaValue k = LuaValue.NIL;
    while (true) {
      var next = t.next(k);
      if ((k = next.arg1()).isnil()) {
        return n;
      }
      n++;
    }
  }

  /** The error reply text of an {@code err} field: Redis's code first, no leading '-'. */
  static String errorText(String err) {
    return err.startsWith("-") ? err.substring(1) : err;
  }

  static byte[] bytes(LuaString s) {
    byte[] b = new byte[s.m_length];
    System.arraycopy(s.m_bytes, s.m_offset, b, 0, s.m_length);
    return b;
  }
}
