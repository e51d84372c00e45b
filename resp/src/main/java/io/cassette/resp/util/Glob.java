package io.cassette.resp.util;

/**
 * Redis's glob matcher ({@code stringmatchlen}): {@code *}, {@code ?}, {@code [abc]},
 * {@code [^a-z]}, and {@code \\} escapes; byte-wise, optionally ASCII case-insensitive.
 *
 * <p>Every token but {@code *} matches exactly one byte, so when a later token fails only
 * the last star needs to take one more byte: one saved position, no recursion. The work is
 * at most (pattern length x string length) steps, whatever the pattern ("a*a*a*...b" against
 * a long key is quadratic, not exponential as plain backtracking is).
 */
public final class Glob {
  private Glob() {}

  public static boolean matches(byte[] pattern, byte[] string) {
    return match(pattern, string, false);
  }

  public static boolean matchesIgnoreCase(byte[] pattern, byte[] string) {
    return match(pattern, string, true);
  }

  /** True when the pattern is just "*" (matching can be skipped). */
  public static boolean matchesAll(byte[] pattern) {
    return pattern.length == 1 && pattern[0] == '*';
  }

  private static boolean match(byte[] p, byte[] s, boolean nocase) {
    int plen = p.length;
    int slen = s.length;
    int pi = 0;
    int si = 0;
    int starPattern = -1; // pattern index after the last star seen
    int starString = 0;   // string index that star currently stops at
    while (si < slen) {
      if (pi < plen && p[pi] == '*') {
        while (pi < plen && p[pi] == '*') {
          pi++;
        }
        if (pi == plen) {
          return true;
        }
        starPattern = pi;
        starString = si;
        continue;
      }
      int next = pi < plen ? matchToken(p, pi, s[si], nocase) : -1;
      if (next >= 0) {
        pi = next;
        si++;
      } else if (starPattern >= 0) {
        pi = starPattern; // the star takes one more byte; try again from there
        si = ++starString;
      } else {
        return false;
      }
    }
    while (pi < plen && p[pi] == '*') {
      pi++;
    }
    return pi == plen;
  }

  /**
   * Matches the one-byte token at {@code p[pi]} (not a star) against {@code c}: the pattern
   * index after the token, or -1 when it does not match.
   */
  private static int matchToken(byte[] p, int pi, byte c, boolean nocase) {
    int plen = p.length;
    switch (p[pi]) {
      case '?' -> {
        return pi + 1;
      }
      case '[' -> {
        pi++;
        boolean not = pi < plen && p[pi] == '^';
        if (not) {
          pi++;
        }
        boolean found = false;
        while (true) {
          if (pi < plen && p[pi] == '\\' && pi + 1 < plen) {
            pi++;
            if (eq(p[pi], c, nocase)) {
              found = true;
            }
          } else if (pi >= plen) {
            pi--; // an unclosed class runs to the end of the pattern, as in Redis
            break;
          } else if (p[pi] == ']') {
            break;
          } else if (pi + 2 < plen && p[pi + 1] == '-') {
            int start = p[pi] & 0xFF;
            int end = p[pi + 2] & 0xFF;
            int ch = c & 0xFF;
            if (start > end) {
              int t = start;
              start = end;
              end = t;
            }
            if (nocase) {
              start = Character.toLowerCase(start);
              end = Character.toLowerCase(end);
              ch = Character.toLowerCase(ch);
            }
            pi += 2;
            if (ch >= start && ch <= end) {
              found = true;
            }
          } else if (eq(p[pi], c, nocase)) {
            found = true;
          }
          pi++;
        }
        return found != not ? pi + 1 : -1;
      }
      case '\\' -> {
        if (pi + 1 < plen) {
          pi++;
        }
        return eq(p[pi], c, nocase) ? pi + 1 : -1;
      }
      default -> {
        return eq(p[pi], c, nocase) ? pi + 1 : -1;
      }
    }
  }

  private static boolean eq(byte a, byte b, boolean nocase) {
    return a == b || (nocase && Character.toLowerCase(a & 0xFF) == Character.toLowerCase(b & 0xFF));
  }
}
