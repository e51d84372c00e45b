package io.cassette.tools.cqlsh;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV as cqlsh's COPY reads and writes it (RFC 4180, Python's csv module with QUOTE_MINIMAL):
 * fields separated by a delimiter, quoted when they hold the delimiter, the quote or a line
 * break, a quote inside a quoted field doubled. A null is written as the NULL string (default
 * empty) unquoted; an empty string is written quoted ({@code ""}) so the two stay apart.
 */
final class Csv {
  private Csv() {}

  /** One record, without its line terminator. */
  static String format(List<String> fields, char delimiter, char quote, String nullString) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.append(delimiter);
      }
      String f = fields.get(i);
      if (f == null) {
        out.append(nullString);
        continue;
      }
      boolean mustQuote = f.isEmpty() || f.equals(nullString) || f.indexOf(delimiter) >= 0
          || f.indexOf(quote) >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0;
      if (mustQuote) {
        out.append(quote);
        for (int j = 0; j < f.length(); j++) {
          char c = f.charAt(j);
          if (c == quote) {
            out.append(quote);
          }
          out.append(c);
        }
        out.append(quote);
      } else {
        out.append(f);
      }
    }
    return out.toString();
  }

  /** Reads records one at a time; not thread-safe. */
  static final class RecordReader {
    private final Reader in;
    private final char delimiter;
    private final char quote;
    private final String nullString;
    private int peeked = -2;
    /** Line number (1-based) where the last record returned began. */
    private int line;
    private int currentLine = 1;

    RecordReader(Reader in, char delimiter, char quote, String nullString) {
      this.in = in;
      this.delimiter = delimiter;
      this.quote = quote;
      this.nullString = nullString;
    }

    int line() {
      return line;
    }

    /**
     * The next record, or null at the end; an unquoted field equal to the NULL string is null.
     *
     * @throws IOException on a read error or a quoted field left open at the end of the file
     */
    List<String> next() throws IOException {
      int c = read();
      while (c == '\r' || c == '\n') { // blank lines are skipped
        c = read();
      }
      if (c == -1) {
        return null;
      }
      line = currentLine;
      List<String> fields = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean quoted = false;
      boolean inQuotes = false;
      while (true) {
        if (inQuotes) {
          if (c == -1) {
            throw new IOException("line " + line + ": a quoted field is not closed before the end of the file");
          }
          if (c == quote) {
            int n = read();
            if (n == quote) {
              field.append(quote);
            } else {
              inQuotes = false;
              c = n;
              continue;
            }
          } else {
            field.append((char) c);
          }
        } else if (c == quote && field.length() == 0 && !quoted) {
          inQuotes = true;
          quoted = true;
        } else if (c == delimiter || c == '\n' || c == '\r' || c == -1) {
          String f = field.toString();
          fields.add(!quoted && f.equals(nullString) ? null : f);
          field.setLength(0);
          quoted = false;
          if (c != delimiter) {
            if (c == '\r') {
              int n = read();
              if (n != '\n') {
                unread(n);
              }
            }
            return fields;
          }
        } else {
          field.append((char) c);
        }
        c = read();
      }
    }

    private int read() throws IOException {
      int c;
      if (peeked != -2) {
        c = peeked;
        peeked = -2;
      } else {
        c = in.read();
      }
      if (c == '\n') {
        currentLine++;
      }
      return c;
    }

    private void unread(int c) {
      if (c == '\n') {
        currentLine--;
      }
      peeked = c;
    }
  }
}
