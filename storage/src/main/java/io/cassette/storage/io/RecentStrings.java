package io.cassette.storage.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Per-thread table of the short strings this thread decoded lately, found by their UTF-8
 * bytes. Every stored cell names its column, so a point read decoded a byte[] and a String
 * per cell for the same few names again and again; now a name seen before costs a hash and a
 * compare. Direct-mapped: a slot holds the last string that hashed to it (its bytes a private
 * copy), so the table never grows past {@link #SLOTS} entries of at most {@link #MAX_LENGTH}
 * bytes (about 16 KB per thread at worst).
 */
public final class RecentStrings {
  /** Longer strings are decoded every time: names are short, values are not kept here. */
  static final int MAX_LENGTH = 48;
  static final int SLOTS = 128;

  private static final ThreadLocal<RecentStrings> TABLE = ThreadLocal.withInitial(RecentStrings::new);

  private final byte[][] bytes = new byte[SLOTS][];
  private final String[] strings = new String[SLOTS];

  private RecentStrings() {}

  /** The string of {@code src[offset, offset + length)} decoded as UTF-8 (a shared instance when recent). */
  public static String decode(byte[] src, int offset, int length) {
    if (length == 0) {
      return "";
    }
    if (length > MAX_LENGTH) {
      return new String(src, offset, length, StandardCharsets.UTF_8);
    }
    return TABLE.get().lookup(src, offset, length);
  }

  private String lookup(byte[] src, int offset, int length) {
    int h = length;
    for (int i = offset, end = offset + length; i < end; i++) {
      h = 31 * h + src[i];
    }
    int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    byte[] b = bytes[slot];
    if (b != null && Arrays.equals(b, 0, b.length, src, offset, offset + length)) {
      return strings[slot];
    }
    String s = new String(src, offset, length, StandardCharsets.UTF_8);
    strings[slot] = s;
    bytes[slot] = Arrays.copyOfRange(src, offset, offset + length);
    return s;
  }
}
