package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.READONLY;

import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN] (Redis 7.0's t_string.c): the
 * longest common subsequence by the textbook dynamic programme, with Redis's walk back for
 * the match ranges. Its table takes 4 x (len1+1) x (len2+1) bytes, refused past
 * proto-max-bulk-len as Redis does, and past a quarter of the heap (a small board's bound).
 */
final class LcsCommand {
  private LcsCommand() {}

  static void register(CommandTable t) {
    t.add("lcs", -3, READONLY, 1, 2, 1, LcsCommand::lcs);
  }

  private static byte[] value(CommandContext c, byte[] key) {
    KeyMeta m = c.db().meta(key);
    if (m != null && m.type != KeyType.STRING) {
      throw new RedisException("ERR The specified keys must contain string values");
    }
    return m == null || m.value == null ? new byte[0] : m.value;
  }

  private static void lcs(CommandContext c) {
    KeyMeta ma = c.db().meta(c.arg(1));
    KeyMeta mb = c.db().meta(c.arg(2));
    if ((ma != null && ma.type != KeyType.STRING) || (mb != null && mb.type != KeyType.STRING)) {
      throw new RedisException("ERR The specified keys must contain string values");
    }
    byte[] a = value(c, c.arg(1));
    byte[] b = value(c, c.arg(2));
    boolean getLen = false;
    boolean getIdx = false;
    boolean withMatchLen = false;
    long minMatchLen = 0;
    for (int j = 3; j < c.argc(); j++) {
      byte[] o = c.arg(j);
      if (Args.is(o, "idx")) {
        getIdx = true;
      } else if (Args.is(o, "len")) {
        getLen = true;
      } else if (Args.is(o, "withmatchlen")) {
        withMatchLen = true;
      } else if (Args.is(o, "minmatchlen") && j + 1 < c.argc()) {
        minMatchLen = Math.max(0, Args.parseLong(c.arg(++j)));
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    if (getLen && getIdx) {
      throw new RedisException(
          "ERR If you want both the length and indexes, please just use IDX.");
    }
    int alen = a.length;
    int blen = b.length;
    long bytes = 4L * (alen + 1) * (blen + 1);
    if (bytes > c.server.maxStringLength) {
      throw new RedisException("ERR Insufficient memory, transient memory for LCS exceeds "
          + "proto-max-bulk-len");
    }
    if (bytes > Runtime.getRuntime().maxMemory() / 4 || bytes / 4 > Integer.MAX_VALUE - 8) {
      throw new RedisException("ERR Insufficient memory, failed allocating transient memory for LCS");
    }
    int w = blen + 1;
    int[] t = new int[(alen + 1) * w];
    for (int i = 1; i <= alen; i++) {
      for (int j = 1; j <= blen; j++) {
        if (a[i - 1] == b[j - 1]) {
          t[i * w + j] = t[(i - 1) * w + j - 1] + 1;
        } else {
          t[i * w + j] = Math.max(t[(i - 1) * w + j], t[i * w + j - 1]);
        }
      }
    }
    int total = t[alen * w + blen];
    Reply r = c.reply();
    if (getLen) {
      r.integer(total);
      return;
    }
    byte[] result = new byte[total];
    int idx = total;
    List<long[]> ranges = new ArrayList<>();
    int aStart = alen; // alen: no range open
    int aEnd = 0;
    int bStart = 0;
    int bEnd = 0;
    int i = alen;
    int j = blen;
    while (i > 0 && j > 0) {
      boolean emit = false;
      if (a[i - 1] == b[j - 1]) {
        result[idx - 1] = a[i - 1];
        if (aStart == alen) {
          aStart = i - 1;
          aEnd = i - 1;
          bStart = j - 1;
          bEnd = j - 1;
        } else if (aStart == i && bStart == j) {
          aStart--;
          bStart--;
        } else {
          emit = true;
        }
        if (aStart == 0 || bStart == 0) {
          emit = true;
        }
        idx--;
        i--;
        j--;
      } else {
        if (t[(i - 1) * w + j] > t[i * w + j - 1]) {
          i--;
        } else {
          j--;
        }
        if (aStart != alen) {
          emit = true;
        }
      }
      long matchLen = aEnd - aStart + 1;
      if (emit) {
        if (minMatchLen == 0 || matchLen >= minMatchLen) {
          ranges.add(new long[] {aStart, aEnd, bStart, bEnd, matchLen});
        }
        aStart = alen;
      }
    }
    if (!getIdx) {
      r.bulk(result);
      return;
    }
    r.map(2);
    r.bulk("matches");
    r.array(ranges.size());
    for (long[] x : ranges) {
      r.array(withMatchLen ? 3 : 2);
      r.array(2);
      r.integer(x[0]);
      r.integer(x[1]);
      r.array(2);
      r.integer(x[2]);
      r.integer(x[3]);
      if (withMatchLen) {
        r.integer(x[4]);
      }
    }
    r.bulk("len");
    r.integer(total);
  }
}
