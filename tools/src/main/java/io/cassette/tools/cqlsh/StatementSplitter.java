package io.cassette.tools.cqlsh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts the shell's input into statements, line by line, as cqlsh does: a CQL statement ends at
 * a {@code ;} outside quotes, identifiers, {@code $$} strings and comments; a shell command
 * (DESCRIBE, EXPAND, PAGING, CONSISTENCY, SOURCE, COPY, EXIT...) also ends at the end of its
 * line. Comments are dropped; text is otherwise passed through unchanged.
 *
 * <p>Feed lines with {@link #addLine}; it returns the statements completed by that line and
 * keeps the rest. Not thread-safe.
 */
final class StatementSplitter {
  /** Commands the shell runs itself; they need no {@code ;}. */
  static final Set<String> SHELL_COMMANDS = Set.of("DESCRIBE", "DESC", "EXPAND", "PAGING",
      "CONSISTENCY", "SERIAL", "SOURCE", "COPY", "EXIT", "QUIT", "HELP", "?", "SHOW", "CLEAR",
      "CLS", "TRACING", "CAPTURE", "LOGIN", "DEBUG");

  private enum State { CODE, SINGLE_QUOTE, DOUBLE_QUOTE, DOLLAR, BLOCK_COMMENT }

  /** The statement being assembled, without comments. */
  private final StringBuilder pending = new StringBuilder();
  private State state = State.CODE;
  /** Line number (1-based) where the pending statement began; 0 when none. */
  private int startLine;
  private int lineNumber;

  /** A complete statement and the line it started on (for cqlsh's "file:line:" errors). */
  record Statement(String text, int line) {}

  /** Adds one line of input (without its line terminator). */
  List<Statement> addLine(String line) {
    lineNumber++;
    List<Statement> done = new ArrayList<>();
    int i = 0;
    int n = line.length();
    while (i < n) {
      char c = line.charAt(i);
      char next = i + 1 < n ? line.charAt(i + 1) : 0;
      switch (state) {
        case CODE -> {
          if (c == '-' && next == '-' || c == '/' && next == '/') {
            i = n; // line comment: the rest of the line
            continue;
          } else if (c == '/' && next == '*') {
            state = State.BLOCK_COMMENT;
            i += 2;
            continue;
          } else if (c == ';') {
            append(c);
            finish(done);
            i++;
            continue;
          } else if (c == '\'') {
            state = State.SINGLE_QUOTE;
          } else if (c == '"') {
            state = State.DOUBLE_QUOTE;
          } else if (c == '$' && next == '$') {
            state = State.DOLLAR;
            append(c);
            append(next);
            i += 2;
            continue;
          }
          append(c);
        }
        case SINGLE_QUOTE, DOUBLE_QUOTE -> {
          char quote = state == State.SINGLE_QUOTE ? '\'' : '"';
          append(c);
          if (c == quote) {
            if (next == quote) { // doubled quote: an escaped quote inside the string
              append(next);
              i += 2;
              continue;
            }
            state = State.CODE;
          }
        }
        case DOLLAR -> {
          append(c);
          if (c == '$' && next == '$') {
            append(next);
            state = State.CODE;
            i += 2;
            continue;
          }
        }
        case BLOCK_COMMENT -> {
          if (c == '*' && next == '/') {
            state = State.CODE;
            append(' ');
            i += 2;
            continue;
          }
        }
      }
      i++;
    }
    if (state == State.CODE && isShellCommand(pending)) {
      finish(done);
    } else if (pending.length() > 0 && state != State.BLOCK_COMMENT) {
      if (state == State.CODE) { // spaces before a comment or the line end carry nothing
        int end = pending.length();
        while (end > 0 && pending.charAt(end - 1) == ' ') {
          end--;
        }
        pending.setLength(end);
      }
      append('\n');
    }
    return done;
  }

  /** True when a statement is partly typed (the shell shows its continuation prompt). */
  boolean inStatement() {
    return !pending.toString().isBlank() || state != State.CODE;
  }

  /** What is left at the end of input: a statement without its {@code ;}, or null. */
  Statement remainder() {
    String text = pending.toString().strip();
    pending.setLength(0);
    state = State.CODE;
    return text.isEmpty() ? null : new Statement(text, startLine);
  }

  /** Drops a partly typed statement (Ctrl-C). */
  void reset() {
    pending.setLength(0);
    state = State.CODE;
    startLine = 0;
  }

  private void append(char c) {
    if (pending.length() == 0 && Character.isWhitespace(c)) {
      return;
    }
    if (pending.length() == 0) {
      startLine = lineNumber;
    }
    pending.append(c);
  }

  private void finish(List<Statement> done) {
    String text = pending.toString().strip();
    pending.setLength(0);
    if (!text.isEmpty() && !text.equals(";")) {
      done.add(new Statement(text, startLine));
    }
    startLine = 0;
  }

  /** The first word of {@code text}, upper-cased ("" when none). */
  static String firstWord(CharSequence text) {
    String s = text.toString().stripLeading();
    int end = 0;
    while (end < s.length() && !Character.isWhitespace(s.charAt(end)) && s.charAt(end) != ';') {
      end++;
    }
    return s.substring(0, end).toUpperCase(Locale.ROOT);
  }

  static boolean isShellCommand(CharSequence text) {
    return SHELL_COMMANDS.contains(firstWord(text));
  }
}
