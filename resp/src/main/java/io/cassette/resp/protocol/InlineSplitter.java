package io.cassette.resp.protocol;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an inline command line into arguments exactly as Redis's {@code sdssplitargs}:
 * whitespace separates, "double quotes" understand \n \r \t \b \a \\ \" and \xHH,
 * 'single quotes' understand \', and a closing quote must be followed by a space or the end.
 * Redis splits a C string, so a NUL byte ends the line there (inside quotes: unbalanced).
 * Every step advances through the line, so the work is linear in its length.
 */
final class InlineSplitter {
  private InlineSplitter() {}

  /** The arguments, or null when quotes are unbalanced. */
  static byte[][] split(byte[] line) {
    List<byte[]> result = new ArrayList<>();
    int p = 0;
    int n = line.length;
    for (int i = 0; i < n; i++) {
      if (line[i] == 0) {
        n = i; // what Redis's sdssplitargs sees of the line
        break;
      }
    }
    while (true) {
      while (p < n && isSpace(line[p])) {
        p++;
      }
      if (p >= n) {
        return result.toArray(new byte[0][]);
      }
      ByteArrayOutputStream cur = new ByteArrayOutputStream();
      boolean inDouble = false;
      boolean inSingle = false;
      boolean done = false;
      while (!done) {
        if (inDouble) {
          if (p >= n) {
            return null;
          }
          byte c = line[p];
          if (c == '\\' && p + 3 < n && line[p + 1] == 'x' && isHex(line[p + 2])
              && isHex(line[p + 3])) {
            cur.write(Character.digit(line[p + 2], 16) * 16 + Character.digit(line[p + 3], 16));
            p += 3;
          } else if (c == '\\' && p + 1 < n) {
            p++;
            byte e = line[p];
            cur.write(switch (e) {
              case 'n' -> '\n';
              case 'r' -> '\r';
              case 't' -> '\t';
              case 'b' -> '\b';
              case 'a' -> 7;
              default -> e;
            });
          } else if (c == '"') {
            if (p + 1 < n && !isSpace(line[p + 1])) {
              return null;
            }
            done = true;
          } else {
            cur.write(c);
          }
        } else if (inSingle) {
          if (p >= n) {
            return null;
          }
          byte c = line[p];
          if (c == '\\' && p + 1 < n && line[p + 1] == '\'') {
            p++;
            cur.write('\'');
          } else if (c == '\'') {
            if (p + 1 < n && !isSpace(line[p + 1])) {
              return null;
            }
            done = true;
          } else {
            cur.write(c);
          }
        } else {
          if (p >= n) {
            break;
          }
          byte c = line[p];
          switch (c) {
            case ' ', '\n', '\r', '\t' -> done = true;
            case '"' -> inDouble = true;
            case '\'' -> inSingle = true;
            default -> cur.write(c);
          }
          if (done) {
            break;
          }
        }
        if (p < n) {
          p++;
        }
      }
      result.add(cur.toByteArray());
    }
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0B || b == '\f';
  }

  private static boolean isHex(byte b) {
    return Character.digit(b, 16) >= 0;
  }
}
