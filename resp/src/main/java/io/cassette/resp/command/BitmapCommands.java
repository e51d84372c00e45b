package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.protocol.Reply;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Bitmaps on string values, as Redis 7.0's bitops.c: SETBIT, GETBIT, BITCOUNT (BYTE|BIT),
 * BITPOS, BITOP, BITFIELD, BITFIELD_RO. Bit 0 is the most significant bit of byte 0. A string
 * lives inline in its key's metadata row, so a write reads and rewrites it whole; offsets are
 * bounded by proto-max-bulk-len (ours derives from the heap), as Redis bounds them, so no
 * command can build a value the node cannot hold.
 */
final class BitmapCommands {
  private BitmapCommands() {}

  private static final String BIT_OFFSET_ERR = "ERR bit offset is not an integer or out of range";
  private static final String BIT_ERR = "ERR bit is not an integer or out of range";
  private static final String TYPE_ERR = "ERR Invalid bitfield type. Use something like i16 u8."
      + " Note that u64 is not supported but i64 is.";

  static void register(CommandTable t) {
    t.add("setbit", 4, WRITE | DENY_OOM, 1, 1, 1, BitmapCommands::setbit);
    t.add("getbit", 3, READONLY | FAST, 1, 1, 1, BitmapCommands::getbit);
    t.add("bitcount", -2, READONLY, 1, 1, 1, BitmapCommands::bitcount);
    t.add("bitpos", -3, READONLY, 1, 1, 1, BitmapCommands::bitpos);
    t.add("bitop", -4, WRITE | DENY_OOM, 2, -1, 1, BitmapCommands::bitop);
    t.add("bitfield", -2, WRITE | DENY_OOM, 1, 1, 1, c -> bitfield(c, false));
    t.add("bitfield_ro", -2, READONLY | FAST, 1, 1, 1, c -> bitfield(c, true));
  }

  /** Redis's getBitOffsetFromArgument: "#N" means N * bits when {@code hash}. */
  private static long offset(CommandContext c, byte[] arg, boolean hash, int bits) {
    boolean useHash = hash && bits > 0 && arg.length > 0 && arg[0] == '#';
    Long v = Args.parseLongOrNull(useHash ? Arrays.copyOfRange(arg, 1, arg.length) : arg);
    if (v == null) {
      throw new RedisException(BIT_OFFSET_ERR);
    }
    long off = useHash ? v * bits : v;
    if (off < 0 || (off >>> 3) >= c.server.maxStringLength) {
      throw new RedisException(BIT_OFFSET_ERR);
    }
    return off;
  }

  private static byte[] valueOf(KeyMeta m) {
    return m == null ? new byte[0] : m.value;
  }

  private static void setbit(CommandContext c) {
    long off = offset(c, c.arg(2), false, 0);
    Long on = Args.parseLongOrNull(c.arg(3));
    if (on == null || (on & ~1L) != 0) {
      throw new RedisException(BIT_ERR);
    }
    Database db = c.db();
    KeyMeta m = Keys.typed(c, c.arg(1), KeyType.STRING);
    byte[] v = valueOf(m);
    int byteIndex = (int) (off >>> 3);
    int bit = 7 - (int) (off & 7);
    boolean grows = m == null || byteIndex >= v.length;
    int old = byteIndex < v.length ? (v[byteIndex] >> bit) & 1 : 0;
    if (grows || old != on) {
      byte[] out = Arrays.copyOf(v, Math.max(v.length, byteIndex + 1));
      out[byteIndex] = (byte) ((out[byteIndex] & ~(1 << bit)) | (on.intValue() << bit));
      StringCommands.put(db, c.arg(1), m, out, m == null ? 0 : m.expireAtMs);
    }
    c.reply().integer(old);
  }

  private static void getbit(CommandContext c) {
    long off = offset(c, c.arg(2), false, 0);
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
    byte[] v = valueOf(m);
    long byteIndex = off >>> 3;
    c.reply().integer(byteIndex < v.length ? (v[(int) byteIndex] >> (7 - (int) (off & 7))) & 1 : 0);
  }

  private static void bitcount(CommandContext c) {
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    byte[] p = m.value;
    long start;
    long end;
    int firstMask = 0;
    int lastMask = 0;
    if (c.argc() == 4 || c.argc() == 5) {
      start = Args.parseLong(c.arg(2));
      end = Args.parseLong(c.arg(3));
      if (start < 0 && end < 0 && start > end) {
        c.reply().integer(0);
        return;
      }
      ByteRange r = ByteRange.of(start, end, p.length, c.argc() == 5 && isBitUnit(c.arg(4)));
      start = r.start();
      end = r.end();
      firstMask = r.firstMask();
      lastMask = r.lastMask();
    } else if (c.argc() == 2) {
      start = 0;
      end = p.length - 1;
    } else {
      throw new RedisException(Errors.SYNTAX);
    }
    if (start > end) {
      c.reply().integer(0);
      return;
    }
    long count = 0;
    for (long i = start; i <= end; i++) {
      count += Integer.bitCount(p[(int) i] & 0xFF);
    }
    if (firstMask != 0) {
      count -= Integer.bitCount(p[(int) start] & firstMask);
    }
    if (lastMask != 0) {
      count -= Integer.bitCount(p[(int) end] & lastMask);
    }
    c.reply().integer(count);
  }

  /** BITCOUNT's and BITPOS's unit argument: BIT or BYTE, anything else a syntax error. */
  private static boolean isBitUnit(byte[] unit) {
    if (Args.is(unit, "bit")) {
      return true;
    }
    if (!Args.is(unit, "byte")) {
      throw new RedisException(Errors.SYNTAX);
    }
    return false;
  }

  /**
   * BITCOUNT's and BITPOS's START END as bitops.c resolves them: negative indexes from the end,
   * clamped to the value; in BIT units, the bytes that hold the ends, with masks of the bits
   * outside the range in the first and the last of them.
   */
  private record ByteRange(long start, long end, int firstMask, int lastMask) {
    static ByteRange of(long start, long end, long length, boolean isBit) {
      long totlen = isBit ? length << 3 : length;
      start = clampRange(start, totlen);
      end = Math.min(clampRange(end, totlen), totlen - 1);
      if (isBit && start <= end) {
        return new ByteRange(start >> 3, end >> 3,
            ~((1 << (8 - (start & 7))) - 1) & 0xFF, (1 << (7 - (end & 7))) - 1);
      }
      return new ByteRange(start, end, 0, 0);
    }
  }

  /** Negative indexes count from the end; what is still negative becomes 0. */
  private static long clampRange(long index, long totlen) {
    if (index < 0) {
      index = totlen + index;
    }
    return Math.max(0, index);
  }

  /**
   * Redis's redisBitpos: the position of the first {@code bit} in {@code count} bytes from
   * {@code from}; when there is none, -1 for a 1 and count*8 (just past) for a 0.
   */
  private static long firstBit(byte[] p, long from, long count, int bit) {
    for (long i = 0; i < count; i++) {
      int b = p[(int) (from + i)] & 0xFF;
      if (bit == 1 ? b != 0 : b != 0xFF) {
        for (int k = 7; k >= 0; k--) {
          if (((b >> k) & 1) == bit) {
            return i * 8 + (7 - k);
          }
        }
      }
    }
    return bit == 1 ? -1 : count * 8;
  }

  private static void bitpos(CommandContext c) {
    long bitArg = Args.parseLong(c.arg(2));
    if (bitArg != 0 && bitArg != 1) {
      throw new RedisException("ERR The bit argument must be 1 or 0.");
    }
    int bit = (int) bitArg;
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
    if (m == null) {
      c.reply().integer(bit == 1 ? -1 : 0);
      return;
    }
    byte[] p = m.value;
    long start;
    long end;
    boolean endGiven = false;
    int firstMask = 0;
    int lastMask = 0;
    if (c.argc() >= 4 && c.argc() <= 6) {
      start = Args.parseLong(c.arg(3));
      boolean isBit = c.argc() == 6 && isBitUnit(c.arg(5));
      if (c.argc() >= 5) {
        end = Args.parseLong(c.arg(4));
        endGiven = true;
      } else {
        end = isBit ? ((long) p.length << 3) + 7 : p.length - 1;
      }
      ByteRange r = ByteRange.of(start, end, p.length, isBit);
      start = r.start();
      end = r.end();
      firstMask = r.firstMask();
      lastMask = r.lastMask();
    } else if (c.argc() == 3) {
      start = 0;
      end = p.length - 1;
    } else {
      throw new RedisException(Errors.SYNTAX);
    }
    if (start > end) {
      c.reply().integer(-1);
      return;
    }
    long bytes = end - start + 1;
    long pos;
    result:
    {
      if (firstMask != 0) {
        int tmp = bit == 1 ? p[(int) start] & ~firstMask : p[(int) start] | firstMask;
        if (lastMask != 0 && bytes == 1) {
          tmp = bit == 1 ? tmp & ~lastMask : tmp | lastMask;
        }
        pos = firstBit(new byte[] {(byte) tmp}, 0, 1, bit);
        if (bytes == 1 || (pos != -1 && pos != 8)) {
          break result;
        }
        start++;
        bytes--;
      }
      long curbytes = bytes - (lastMask != 0 ? 1 : 0);
      if (curbytes > 0) {
        pos = firstBit(p, start, curbytes, bit);
        if (bytes == curbytes || (pos != -1 && pos != curbytes << 3)) {
          break result;
        }
        start += curbytes;
        bytes -= curbytes;
      }
      int tmp = bit == 1 ? p[(int) end] & ~lastMask : p[(int) end] | lastMask;
      pos = firstBit(new byte[] {(byte) tmp}, 0, 1, bit);
    }
    if (endGiven && bit == 0 && pos == bytes << 3) {
      c.reply().integer(-1);
      return;
    }
    if (pos != -1) {
      pos += start << 3;
    }
    c.reply().integer(pos);
  }

  private static void bitop(CommandContext c) {
    String op = c.argString(1).toLowerCase(java.util.Locale.ROOT);
    if (!op.equals("and") && !op.equals("or") && !op.equals("xor") && !op.equals("not")) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (op.equals("not") && c.argc() != 4) {
      throw new RedisException("ERR BITOP NOT must be called with a single source key.");
    }
    Database db = c.db();
    int n = c.argc() - 3;
    byte[][] src = new byte[n][];
    int maxlen = 0;
    for (int j = 0; j < n; j++) {
      KeyMeta m = Keys.typed(c, c.arg(j + 3), KeyType.STRING);
      src[j] = valueOf(m);
      maxlen = Math.max(maxlen, src[j].length);
    }
    byte[] target = c.arg(2);
    KeyMeta old = db.meta(target);
    if (maxlen == 0) {
      if (old != null) {
        var b = db.batch();
        db.remove(b, target, old);
        b.commit();
      }
      c.reply().integer(0);
      return;
    }
    byte[] res = new byte[maxlen];
    for (int j = 0; j < maxlen; j++) {
      int out = j < src[0].length ? src[0][j] & 0xFF : 0;
      if (op.equals("not")) {
        out = ~out & 0xFF;
      }
      for (int i = 1; i < n; i++) {
        int b = j < src[i].length ? src[i][j] & 0xFF : 0;
        switch (op) {
          case "and" -> out &= b;
          case "or" -> out |= b;
          default -> out ^= b;
        }
      }
      res[j] = (byte) out;
    }
    StringCommands.put(db, target, old, res, 0);
    c.reply().integer(maxlen);
  }

  private record Op(int opcode, long offset, long value, int overflow, int bits, boolean signed) {}

  private static final int GET = 0;
  private static final int SET = 1;
  private static final int INCRBY = 2;
  private static final int WRAP = 0;
  private static final int SAT = 1;
  private static final int FAIL = 2;

  private static void bitfield(CommandContext c, boolean readOnlyCommand) {
    List<Op> ops = new ArrayList<>();
    int overflow = WRAP;
    boolean readonly = true;
    long highest = 0;
    for (int j = 2; j < c.argc(); j++) {
      int rem = c.argc() - j - 1;
      byte[] sub = c.arg(j);
      int opcode;
      if (Args.is(sub, "get") && rem >= 2) {
        opcode = GET;
      } else if (Args.is(sub, "set") && rem >= 3) {
        opcode = SET;
      } else if (Args.is(sub, "incrby") && rem >= 3) {
        opcode = INCRBY;
      } else if (Args.is(sub, "overflow") && rem >= 1) {
        byte[] name = c.arg(++j);
        if (Args.is(name, "wrap")) {
          overflow = WRAP;
        } else if (Args.is(name, "sat")) {
          overflow = SAT;
        } else if (Args.is(name, "fail")) {
          overflow = FAIL;
        } else {
          throw new RedisException("ERR Invalid OVERFLOW type specified");
        }
        continue;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
      byte[] type = c.arg(j + 1);
      boolean signed;
      if (type.length > 0 && type[0] == 'i') {
        signed = true;
      } else if (type.length > 0 && type[0] == 'u') {
        signed = false;
      } else {
        throw new RedisException(TYPE_ERR);
      }
      Long bits = Args.parseLongOrNull(Arrays.copyOfRange(type, 1, type.length));
      if (bits == null || bits < 1 || (signed && bits > 64) || (!signed && bits > 63)) {
        throw new RedisException(TYPE_ERR);
      }
      long off = offset(c, c.arg(j + 2), true, bits.intValue());
      long value = 0;
      if (opcode != GET) {
        readonly = false;
        highest = Math.max(highest, off + bits - 1);
        value = Args.parseLong(c.arg(j + 3));
      }
      ops.add(new Op(opcode, off, value, overflow, bits.intValue(), signed));
      j += 3 - (opcode == GET ? 1 : 0);
    }
    Database db = c.db();
    KeyMeta m;
    byte[] p;
    boolean dirty = false;
    if (readonly) {
      m = Keys.read(c, c.arg(1), KeyType.STRING);
      p = valueOf(m);
    } else {
      if (readOnlyCommand) {
        throw new RedisException("ERR BITFIELD_RO only supports the GET subcommand");
      }
      m = Keys.typed(c, c.arg(1), KeyType.STRING);
      byte[] v = valueOf(m);
      int need = (int) (highest >>> 3) + 1;
      dirty = m == null || need > v.length;
      p = need > v.length ? Arrays.copyOf(v, need) : v.clone();
    }
    Reply r = c.reply();
    r.array(ops.size());
    int changes = 0;
    for (Op op : ops) {
      if (op.opcode == GET) {
        byte[] buf = new byte[9];
        long byteIndex = op.offset >>> 3;
        for (int i = 0; i < 9 && byteIndex + i < p.length; i++) {
          buf[i] = p[(int) (byteIndex + i)];
        }
        long rel = op.offset - byteIndex * 8;
        r.integer(op.signed ? getSigned(buf, rel, op.bits) : getUnsigned(buf, rel, op.bits));
        continue;
      }
      long oldval = op.signed ? getSigned(p, op.offset, op.bits) : getUnsigned(p, op.offset, op.bits);
      long newval;
      long retval;
      long[] wrapped = new long[1];
      int of;
      if (op.opcode == INCRBY) {
        of = op.signed ? signedOverflow(oldval, op.value, op.bits, op.overflow, wrapped)
            : unsignedOverflow(oldval, op.value, op.bits, op.overflow, wrapped);
        newval = of != 0 ? wrapped[0] : oldval + op.value;
        retval = newval;
      } else {
        newval = op.value;
        of = op.signed ? signedOverflow(newval, 0, op.bits, op.overflow, wrapped)
            : unsignedOverflow(newval, 0, op.bits, op.overflow, wrapped);
        if (of != 0) {
          newval = wrapped[0];
        }
        retval = oldval;
      }
      if (of != 0 && op.overflow == FAIL) {
        r.nullBulk();
      } else {
        r.integer(retval);
        setBits(p, op.offset, op.bits, newval);
        if (dirty || oldval != newval) {
          changes++;
        }
      }
    }
    if (changes > 0) {
      StringCommands.put(db, c.arg(1), m, p, m == null ? 0 : m.expireAtMs);
    }
  }

  private static long getUnsigned(byte[] p, long offset, int bits) {
    long value = 0;
    for (int j = 0; j < bits; j++) {
      int b = p[(int) (offset >>> 3)] & 0xFF;
      int bitval = (b >> (7 - (int) (offset & 7))) & 1;
      value = (value << 1) | bitval;
      offset++;
    }
    return value;
  }

  private static long getSigned(byte[] p, long offset, int bits) {
    long value = getUnsigned(p, offset, bits);
    if (bits < 64 && (value & (1L << (bits - 1))) != 0) {
      value |= -1L << bits;
    }
    return value;
  }

  private static void setBits(byte[] p, long offset, int bits, long value) {
    for (int j = 0; j < bits; j++) {
      long bitval = (value >>> (bits - 1 - j)) & 1;
      int idx = (int) (offset >>> 3);
      int bit = 7 - (int) (offset & 7);
      p[idx] = (byte) ((p[idx] & ~(1 << bit)) | ((int) bitval << bit));
      offset++;
    }
  }

  /** Redis's checkUnsignedBitfieldOverflow (values as unsigned 64-bit in a long). */
  private static int unsignedOverflow(long value, long incr, int bits, int owtype, long[] limit) {
    long max = bits == 64 ? -1L : (1L << bits) - 1;
    long maxincr = max - value;
    long minincr = -value;
    if (Long.compareUnsigned(value, max) > 0 || (incr > 0 && incr > maxincr)) {
      if (owtype == WRAP) {
        limit[0] = wrapUnsigned(value, incr, bits);
      } else if (owtype == SAT) {
        limit[0] = max;
      }
      return 1;
    } else if (incr < 0 && incr < minincr) {
      if (owtype == WRAP) {
        limit[0] = wrapUnsigned(value, incr, bits);
      } else if (owtype == SAT) {
        limit[0] = 0;
      }
      return -1;
    }
    return 0;
  }

  private static long wrapUnsigned(long value, long incr, int bits) {
    long mask = -1L << bits;
    return (value + incr) & ~mask;
  }

  /** Redis's checkSignedBitfieldOverflow. */
  private static int signedOverflow(long value, long incr, int bits, int owtype, long[] limit) {
    long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
    long min = -max - 1;
    long maxincr = max - value;
    long minincr = min - value;
    if (value > max || (bits != 64 && incr > maxincr)
        || (value >= 0 && incr > 0 && incr > maxincr)) {
      if (owtype == WRAP) {
        limit[0] = wrapSigned(value, incr, bits);
      } else if (owtype == SAT) {
        limit[0] = max;
      }
      return 1;
    } else if (value < min || (bits != 64 && incr < minincr)
        || (value < 0 && incr < 0 && incr < minincr)) {
      if (owtype == WRAP) {
        limit[0] = wrapSigned(value, incr, bits);
      } else if (owtype == SAT) {
        limit[0] = min;
      }
      return -1;
    }
    return 0;
  }

  private static long wrapSigned(long value, long incr, int bits) {
    long msb = 1L << (bits - 1);
    long c = value + incr;
    if (bits < 64) {
      long mask = -1L << bits;
      c = (c & msb) != 0 ? c | mask : c & ~mask;
    }
    return c;
  }
}
