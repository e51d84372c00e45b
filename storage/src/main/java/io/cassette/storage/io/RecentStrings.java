package io.cassette.storage.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The short strings decoded lately, found by their UTF-8 bytes. Every stored cell names its
 * column, so a point read decoded a byte[] and a String per cell for the same few names again
 * and again; now a name seen before costs a hash and a compare. One table for all threads,
 * direct-mapped: a slot holds the last string that hashed to it, so it never holds more than
 * {@link #SLOTS} strings of at most {@link #MAX_LENGTH} bytes (about 24 KB). Not a
 * ThreadLocal: on the CQL worker threads a ThreadLocal lookup probed long chains of other
 * entries (a sixth of a point read's samples in one profile). Racy by design: entries are
 * immutable and published whole (final fields), so a reader sees a complete entry or an
 * older one, and a lost store only costs a decode.
 */
public final class RecentStrings {
  /** Longer strings are decoded every time: names are short, values are not kept here. */
  static final int MAX_LENGTH = 48;
  static final int SLOTS = 256;

  private static final class Entry {
    final byte[] bytes;
    final String string;

    Entry(byte[] bytes, String string) {
      this.bytes = bytes;
      this.string = string;
    }
  }

  private static final Entry[] TABLE = new Entry[SLOTS];

  private RecentStrings() {}

  /** The string of {@code src[offset, offset + length)} decoded as UTF-8 (a shared instance when recent). */
  public static String decode(byte[] src, int offset, int length) {
    if (length == 0) {
      return "";
    }
    if (length > MAX_LENGTH) {
      return new String(src, offset, length, StandardCharsets.UTF_8);
    }
    int h = length;
    for (int i = offset, end = offset + length; i < end; i++) {
      h = 31 * h + src[i];
    }
    int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    Entry e = TABLE[slot];
    if (e != null && Arrays.equals(e.bytes, 0, e.bytes.length, src, offset, offset + length)) {
      return e.string;
    }
    String s = new String(src, offset, length, StandardCharsets.UTF_8);
    TABLE[slot] = new Entry(Arrays.copyOfRange(src, offset, offset + length), s);
    return s;
  }
}
