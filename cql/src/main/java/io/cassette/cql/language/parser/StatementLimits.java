package io.cassette.cql.language.parser;

/**
 * The bounds one node puts on a client's statement, per node (two embedded nodes in one JVM
 * each keep their own): the tokens of one request ({@code cql_max_statement_tokens}), the
 * elements of one collection write ({@code items_per_collection_fail_threshold}) and the nesting
 * of terms, selectors, types and JSON values ({@code cql_max_nesting_depth}). The parser and the
 * cell codec are given them; the node's own statements (schema log, built-in tables) are parsed
 * with {@link #STORED}, without the token bound.
 *
 * @param maxTokens most tokens (whitespace and comments included) of one request's statements
 * @param maxCollectionItems most elements one write may give a non-frozen collection
 * @param maxNesting deepest nesting of terms, selectors, types and JSON values
 */
public record StatementLimits(int maxTokens, int maxCollectionItems, int maxNesting) {
  /** Deepest nesting by default: real statements nest a few levels, a 1 MB stack survives about 400. */
  public static final int DEFAULT_MAX_NESTING = 100;

  /** The defaults of this JVM's heap (see {@link #defaultMaxTokens}, {@link #defaultMaxCollectionItems}). */
  public static final StatementLimits DEFAULTS = of(0, 0, 0);

  /** For what the node itself stored or built: no token or element bound, the nesting bound kept. */
  public static final StatementLimits STORED = new StatementLimits(Integer.MAX_VALUE, Integer.MAX_VALUE,
      DEFAULT_MAX_NESTING);

  public StatementLimits {
    if (maxTokens <= 0 || maxCollectionItems <= 0 || maxNesting <= 0) {
      throw new IllegalArgumentException("statement limits must be positive: " + maxTokens + ", "
          + maxCollectionItems + ", " + maxNesting);
    }
  }

  /** The given bounds; a value {@code <= 0} takes that bound's default. */
  public static StatementLimits of(int maxTokens, int maxCollectionItems, int maxNesting) {
    return new StatementLimits(maxTokens > 0 ? maxTokens : defaultMaxTokens(),
        maxCollectionItems > 0 ? maxCollectionItems : defaultMaxCollectionItems(),
        maxNesting > 0 ? maxNesting : DEFAULT_MAX_NESTING);
  }

  /**
   * heap/4096, 4,096..1,048,576. Parsing costs about a hundred bytes of heap per token before
   * anything runs (the token, its text, the tree built from it), so a 2 MiB statement of
   * one-character terms (a list literal or IN list of a million elements, a batch of fifty
   * thousand inserts) took a 64 MiB node's whole heap; this keeps parsing to a fraction of it.
   */
  public static int defaultMaxTokens() {
    return (int) Math.min(1 << 20, Math.max(4096, Runtime.getRuntime().maxMemory() / 4096));
  }

  /**
   * heap/2048, 1,024..65,535 (protocol v2's bound on a collection): 32,768 at 64 MiB. Each element
   * becomes a cell (~100+ bytes of heap in the mutation, its serialization and the memtable), so
   * a 2 MiB list&lt;int&gt; value (262,000 elements) took a 64 MiB node's heap. Cassandra 5.0's
   * guardrail for this, items_per_collection_fail_threshold, is off by default.
   */
  public static int defaultMaxCollectionItems() {
    return (int) Math.max(1024, Math.min(65_535, Runtime.getRuntime().maxMemory() / 2048));
  }
}
