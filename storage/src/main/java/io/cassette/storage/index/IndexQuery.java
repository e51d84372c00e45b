package io.cassette.storage.index;

import java.util.List;

/**
 * What a replica answers from its storage-attached indexes in a range read (Cassandra 5.0's
 * range read with an index expression): either the rows every {@code expressions} admits
 * (term indexes, intersected), or the {@code limit} rows nearest {@code vector} by the vector
 * index {@code annIndex} within the range (ANN: each replica's top k, the coordinator merges
 * and re-ranks). Candidates only: the front door re-checks every row it is given.
 */
public record IndexQuery(List<IndexExpression> expressions, String annIndex, float[] vector, int limit) {
  public IndexQuery {
    expressions = List.copyOf(expressions);
  }

  public static IndexQuery terms(List<IndexExpression> expressions) {
    return new IndexQuery(expressions, null, null, 0);
  }

  public static IndexQuery nearest(String annIndex, float[] vector, int limit) {
    return new IndexQuery(List.of(), annIndex, vector, limit);
  }

  public boolean isNearest() {
    return annIndex != null;
  }

  /** The index names it needs, so a replica without one of them can say so. */
  public List<String> indexNames() {
    if (isNearest()) {
      return List.of(annIndex);
    }
    return expressions.stream().map(IndexExpression::index).distinct().toList();
  }
}
