package io.cassette.cql.language.parser;

import io.cassette.cql.language.Errors;
import io.cassette.cql.language.parser.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits CQL text into tokens as Cassandra's lexer does: case-insensitive unquoted names
 * (lower-cased), "quoted" names, 'strings' and $$strings$$, integers with an optional minus,
 * floats, NaN/Infinity, 0x blobs, UUIDs, durations, comments and punctuation. Whitespace and
 * comments are kept as hidden tokens so error snippets can be cut like Cassandra's.
 */
public final class Lexer {
  private static final Pattern UUID = Pattern.compile(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern DURATION = Pattern.compile(
      "-?(\\d+(y|Y|mo|MO|Mo|mO|w|W|d|D|h|H|ms|MS|Ms|mS|us|US|Us|uS|µs|µS|ns|NS|Ns|nS|s|S|m|M))+");
  private static final Pattern ISO_DURATION = Pattern.compile(
      "-?P((\\d+Y)?(\\d+M)?(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+S)?)?|\\d+W|\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2})");
  private static final Pattern NUMBER = Pattern.compile(
      "-?\\d+(\\.\\d*)?([eE][+-]?\\d+)?");

  private final String q;
  private final int maxTokens;
  /** The node's bound named in the error ({@code maxTokens} may be what a batch has left of it). */
  private final int nodeLimit;
  private int pos;
  private int line = 1;
  private int lineStart;
  private final List<Token> all = new ArrayList<>();
  private final List<Token> significant = new ArrayList<>();

  private Lexer(String q, int maxTokens, int nodeLimit) {
    this.q = q;
    this.maxTokens = maxTokens;
    this.nodeLimit = nodeLimit;
  }

  /** Tokens without whitespace/comments, ending with EOF; {@code all} receives every token. */
  public static List<Token> tokenize(String query, List<Token> all) {
    int max = StatementLimits.DEFAULTS.maxTokens();
    return tokenize(query, all, max, max);
  }

  /**
   * As {@link #tokenize(String, List)}, refusing statements of more than {@code maxTokens} tokens;
   * the error names {@code nodeLimit}, the node's bound ({@link StatementLimits#maxTokens}).
   */
  public static List<Token> tokenize(String query, List<Token> all, int maxTokens, int nodeLimit) {
    Lexer l = new Lexer(query, maxTokens, nodeLimit);
    l.run();
    all.addAll(l.all);
    return l.significant;
  }

  private void run() {
    while (pos < q.length()) {
      int start = pos;
      int col = pos - lineStart;
      int startLine = line;
      char c = q.charAt(pos);
      if (Character.isWhitespace(c) || q.startsWith("--", pos) || q.startsWith("//", pos)
          || q.startsWith("/*", pos)) {
        skipHidden();
        add(Kind.WHITESPACE, start, startLine, col, null);
        continue;
      }
      if (c == '\'') {
        add(Kind.STRING, start, startLine, col, quoted('\''));
      } else if (c == '$' && q.startsWith("$$", pos)) {
        int endIdx = q.indexOf("$$", pos + 2);
        if (endIdx < 0) {
          throw lexError(startLine, col, "$");
        }
        String v = q.substring(pos + 2, endIdx);
        advanceTo(endIdx + 2);
        add(Kind.STRING, start, startLine, col, v);
      } else if (c == '"') {
        add(Kind.QUOTED_IDENT, start, startLine, col, quoted('"'));
      } else if (c == '?') {
        pos++;
        add(Kind.QMARK, start, startLine, col, "?");
      } else if (c == ':' && pos + 1 < q.length() && (Character.isLetter(q.charAt(pos + 1))
          || q.charAt(pos + 1) == '"')) {
        pos++;
        String name;
        if (q.charAt(pos) == '"') {
          name = quoted('"');
        } else {
          int s = pos;
          while (pos < q.length() && isIdentPart(q.charAt(pos))) {
            pos++;
          }
          name = q.substring(s, pos).toLowerCase(Locale.ROOT);
        }
        add(Kind.NAMED_MARKER, start, startLine, col, name);
      } else if (Character.isDigit(c) || (c == '-' && pos + 1 < q.length()
          && (Character.isDigit(q.charAt(pos + 1)) || q.startsWith("NaN", pos + 1)
          || q.startsWith("Infinity", pos + 1)))) {
        number(start, startLine, col);
      } else if (Character.isLetter(c)) {
        if (pos + 36 <= q.length() && UUID.matcher(q.substring(pos, pos + 36)).matches()
            && (pos + 36 == q.length() || !isIdentPart(q.charAt(pos + 36)))) {
          pos += 36;
          add(Kind.UUID, start, startLine, col, q.substring(start, pos));
          continue;
        }
        while (pos < q.length() && isIdentPart(q.charAt(pos))) {
          pos++;
        }
        String word = q.substring(start, pos);
        if (word.equals("NaN") || word.equals("Infinity")) {
          add(Kind.FLOAT, start, startLine, col, word);
        } else if (ISO_DURATION.matcher(word).matches() && word.length() > 1) {
          add(Kind.DURATION, start, startLine, col, word);
        } else {
          add(Kind.IDENT, start, startLine, col, word.toLowerCase(Locale.ROOT));
        }
      } else {
        String sym = symbol();
        if (sym == null) {
          throw lexError(startLine, col, String.valueOf(c));
        }
        pos += sym.length();
        add(Kind.SYMBOL, start, startLine, col, sym);
      }
    }
    Token eof = new Token(Kind.EOF, "<EOF>", "<EOF>", line, pos - lineStart, pos, pos, all.size());
    all.add(eof);
    significant.add(eof);
  }

  private void number(int start, int startLine, int col) {
    if (pos + 36 <= q.length() && UUID.matcher(q.substring(pos, pos + 36)).matches()) {
      pos += 36;
      add(Kind.UUID, start, startLine, col, q.substring(start, pos));
      return;
    }
    if (q.startsWith("0x", pos) || q.startsWith("0X", pos)) {
      pos += 2;
      while (pos < q.length() && Character.digit(q.charAt(pos), 16) >= 0) {
        pos++;
      }
      add(Kind.HEX, start, startLine, col, q.substring(start, pos));
      return;
    }
    if (q.startsWith("-NaN", pos) || q.startsWith("-Infinity", pos)) {
      pos += q.startsWith("-NaN", pos) ? 4 : 9;
      add(Kind.FLOAT, start, startLine, col, q.substring(start, pos));
      return;
    }
    Matcher d = DURATION.matcher(q).region(pos, q.length());
    if (d.lookingAt() && (d.end() == q.length() || !isIdentPart(q.charAt(d.end())))) {
      pos = d.end();
      add(Kind.DURATION, start, startLine, col, q.substring(start, pos));
      return;
    }
    Matcher m = NUMBER.matcher(q).region(pos, q.length());
    if (!m.lookingAt()) {
      throw lexError(startLine, col, String.valueOf(q.charAt(pos)));
    }
    pos = m.end();
    String text = q.substring(start, pos);
    boolean isFloat = m.group(1) != null || m.group(2) != null;
    add(isFloat ? Kind.FLOAT : Kind.INTEGER, start, startLine, col, text);
  }

  private String symbol() {
    for (String s : new String[] {"<=", ">=", "!=", "+=", "-=", "(", ")", "[", "]", "{", "}", ",",
        ";", ".", "*", "=", "<", ">", ":", "+", "-", "&", "/", "%"}) {
      if (q.startsWith(s, pos)) {
        return s;
      }
    }
    return null;
  }

  private static boolean isIdentPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private String quoted(char quote) {
    int startLine = line;
    int col = pos - lineStart;
    StringBuilder sb = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= q.length()) {
        throw lexError(startLine, col, String.valueOf(quote));
      }
      char c = q.charAt(pos);
      if (c == quote) {
        if (pos + 1 < q.length() && q.charAt(pos + 1) == quote) {
          sb.append(quote);
          pos += 2;
          continue;
        }
        pos++;
        return sb.toString();
      }
      if (c == '\n') {
        line++;
        lineStart = pos + 1;
      }
      sb.append(c);
      pos++;
    }
  }

  private void skipHidden() {
    while (pos < q.length()) {
      char c = q.charAt(pos);
      if (c == '\n') {
        line++;
        pos++;
        lineStart = pos;
      } else if (Character.isWhitespace(c)) {
        pos++;
      } else if (q.startsWith("--", pos) || q.startsWith("//", pos)) {
        while (pos < q.length() && q.charAt(pos) != '\n') {
          pos++;
        }
      } else if (q.startsWith("/*", pos)) {
        int e = q.indexOf("*/", pos + 2);
        advanceTo(e < 0 ? q.length() : e + 2);
      } else {
        return;
      }
    }
  }

  private void advanceTo(int target) {
    while (pos < target) {
      if (q.charAt(pos) == '\n') {
        line++;
        lineStart = pos + 1;
      }
      pos++;
    }
  }

  private void add(Kind kind, int start, int startLine, int col, String value) {
    if (all.size() >= maxTokens) {
      throw Errors.invalid("Statement too large: more than " + nodeLimit + " tokens in one request on this"
          + " node (bind large collections and IN lists as values, split large batches)");
    }
    Token t = new Token(kind, q.substring(start, pos), value, startLine, col, start, pos, all.size());
    all.add(t);
    if (kind != Kind.WHITESPACE) {
      significant.add(t);
    }
  }

  private RuntimeException lexError(int l, int col, String ch) {
    return Errors.syntax("line " + l + ":" + col + " character '" + ch + "' is not supported here");
  }
}
