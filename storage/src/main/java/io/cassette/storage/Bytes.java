package io.cassette.storage;

import java.util.Arrays;

/** Unsigned lexicographic byte order, the order of every key and clustering in storage. */
public final class Bytes {
  public static final byte[] EMPTY = new byte[0];

  private Bytes() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** True if {@code bytes} starts with {@code prefix}. */
  public static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  public static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2 + 2).append("0x");
    for (byte b : bytes) {
      sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return sb.toString();
  }
}
