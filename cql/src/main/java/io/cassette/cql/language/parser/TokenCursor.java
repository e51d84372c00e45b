package io.cassette.cql.language.parser;

import io.cassette.cql.CqlException;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.parser.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A position in one statement's tokens, with the moves a recursive-descent parser makes (peek,
 * next, accept, expect) and Cassandra's ANTLR error texts: {@code line 1:9 mismatched input
 * 'FRM' expecting K_FROM (SELECT * [FRM] t)}. Shared by the main {@link Parser} and the role
 * and permission statements' parser, so both read and fail alike. Not thread-safe; one
 * instance per statement.
 */
public abstract class TokenCursor {
  /** Raw tokens (whitespace included) shown before the offending one in an error's snippet. */
  private static final int SNIPPET_TOKENS_BEFORE = 10;

  /** The statement's text, for error snippets. */
  protected final String query;
  /** Significant tokens (no whitespace or comments), ending with EOF. */
  protected final List<Token> tokens;
  /** Every token, whitespace and comments included (for snippets). */
  protected final List<Token> all = new ArrayList<>();
  /** Index in {@link #tokens} of the next token. */
  protected int pos;

  /**
   * @param maxTokens the statement's token bound
   * @param nodeLimit the node's bound the error names ({@link StatementLimits#maxTokens})
   */
  protected TokenCursor(String query, int maxTokens, int nodeLimit) {
    this.query = query;
    this.tokens = Lexer.tokenize(query, all, maxTokens, nodeLimit);
  }

  protected Token peek() {
    return tokens.get(pos);
  }

  protected Token peek(int ahead) {
    return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
  }

  /** The next token, consumed (EOF stays). */
  protected Token next() {
    Token t = tokens.get(pos);
    if (t.kind() != Kind.EOF) {
      pos++;
    }
    return t;
  }

  protected boolean at(String kw) {
    return peek().is(kw);
  }

  protected boolean accept(String kw) {
    if (at(kw)) {
      pos++;
      return true;
    }
    return false;
  }

  protected void expect(String kw) {
    if (!accept(kw)) {
      throw mismatched(peek(), tokenName(kw));
    }
  }

  /** ANTLR's name of a keyword ({@code K_FROM}) or symbol ({@code '('}). */
  protected static String tokenName(String kw) {
    return Character.isLetter(kw.charAt(0)) ? "K_" + kw.toUpperCase(Locale.ROOT) : "'" + kw + "'";
  }

  protected CqlException mismatched(Token t, String expecting) {
    return Errors.syntax(position(t) + " mismatched input '" + t.text() + "' expecting " + expecting
        + snippet(t, t));
  }

  protected CqlException noViable(Token t) {
    // ANTLR's stream sits on the last consumed token when a decision fails: that is the one
    // Cassandra's snippet brackets, followed by the offending token.
    int i = tokens.indexOf(t);
    Token bracket = i > 0 ? tokens.get(i - 1) : t;
    return Errors.syntax(position(t) + " no viable alternative at input '" + t.text() + "'" + snippet(bracket, t));
  }

  /** ANTLR reports the end of input at line 0, column -1. */
  protected static String position(Token t) {
    return t.kind() == Kind.EOF ? "line 0:-1" : "line " + t.line() + ":" + t.column();
  }

  /**
   * Cassandra's ErrorCollector snippet: from ~10 raw tokens (whitespace included) before the
   * offending one up to it, the offending token in brackets, "..." where the query goes on.
   * None at the end of input.
   */
  protected String snippet(Token bracket, Token offending) {
    if (offending.kind() == Kind.EOF) {
      return "";
    }
    int index = bracket.rawIndex();
    Token from = all.get(Math.max(0, index - SNIPPET_TOKENS_BEFORE));
    boolean includeStart = from.start() == 0;
    boolean includeEnd = offending.end() >= query.length();
    StringBuilder sb = new StringBuilder(" (");
    if (!includeStart) {
      sb.append("...");
    }
    String before = query.substring(from.start(), bracket.start());
    String after = query.substring(bracket.end(), offending.end());
    sb.append(before.replace("\n", "")).append('[').append(bracket.text()).append(']')
        .append(after.replace("\n", ""));
    if (!includeEnd) {
      sb.append("...");
    }
    return sb.append(')').toString();
  }
}
