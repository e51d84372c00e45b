package io.cassette.resp.command;

/**
 * Redis's glob matcher ({@code stringmatchlen}): {@code *}, {@code ?}, {@code [abc]},
 * {@code [^a-z]}, and {@code \} escapes; byte-wise, optionally ASCII case-insensitive.
 */
public final class Glob {
  /** Bounds the recursion on patterns like "*a*a*a*..." as Redis 7 does. */
  private static final int MAX_NESTING = 1000;

  private Glob() {}

  public static boolean matches(byte[] pattern, byte[] string) {
    return match(pattern, 0, string, 0, false, 0);
  }

  public static boolean matchesIgnoreCase(byte[] pattern, byte[] string) {
    return match(pattern, 0, string, 0, true, 0);
  }

  /** True when the pattern is just "*" (matching can be skipped). */
  public static boolean matchesAll(byte[] pattern) {
    return pattern.length == 1 && pattern[0] == '*';
  }

  private static boolean match(byte[] p, int pi, byte[] s, int si, boolean nocase, int nesting) {
    if (nesting > MAX_NESTING) {
      return false;
    }
    int plen = p.length;
    int slen = s.length;
    while (pi < plen && si <= slen) {
      switch (p[pi]) {
        case '*' -> {
          while (pi + 1 < plen && p[pi + 1] == '*') {
            pi++;
          }
          if (pi + 1 == plen) {
            return true;
          }
          for (int k = si; k <= slen; k++) {
            if (match(p, pi + 1, s, k, nocase, nesting + 1)) {
              return true;
            }
          }
          return false;
        }
        case '?' -> {
          if (si >= slen) {
            return false;
          }
          si++;
        }
        case '[' -> {
          if (si >= slen) {
            return false;
          }
          pi++;
          boolean not = pi < plen && p[pi] == '^';
          if (not) {
            pi++;
          }
          boolean found = false;
          while (true) {
            if (pi < plen && p[pi] == '\\' && pi + 1 < plen) {
              pi++;
              if (eq(p[pi], s[si], nocase)) {
                found = true;
              }
            } else if (pi >= plen) {
              pi--;
              break;
            } else if (p[pi] == ']') {
              break;
            } else if (pi + 2 < plen && p[pi + 1] == '-') {
              int start = p[pi] & 0xFF;
              int end = p[pi + 2] & 0xFF;
              int c = s[si] & 0xFF;
              if (start > end) {
                int t = start;
                start = end;
                end = t;
              }
              if (nocase) {
                start = Character.toLowerCase(start);
                end = Character.toLowerCase(end);
                c = Character.toLowerCase(c);
              }
              pi += 2;
              if (c >= start && c <= end) {
                found = true;
              }
            } else if (eq(p[pi], s[si], nocase)) {
              found = true;
            }
            pi++;
          }
          if (not) {
            found = !found;
          }
          if (!found) {
            return false;
          }
          si++;
        }
        case '\\' -> {
          if (pi + 1 < plen) {
            pi++;
          }
          if (si >= slen || !eq(p[pi], s[si], nocase)) {
            return false;
          }
          si++;
        }
        default -> {
          if (si >= slen || !eq(p[pi], s[si], nocase)) {
            return false;
          }
          si++;
        }
      }
      pi++;
    }
    while (pi < plen && p[pi] == '*') {
      pi++;
    }
    return pi == plen && si == slen;
  }

  private static boolean eq(byte a, byte b, boolean nocase) {
    return a == b || (nocase && Character.toLowerCase(a & 0xFF) == Character.toLowerCase(b & 0xFF));
  }
}
