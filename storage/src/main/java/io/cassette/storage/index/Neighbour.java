package io.cassette.storage.index;

import java.util.Comparator;

/** A row found by a vector search and its score for the query (higher is nearer). */
public record Neighbour(PrimaryKey key, float score) {
  static final Comparator<Neighbour> BEST_FIRST = (a, b) -> Float.compare(b.score, a.score);
}
