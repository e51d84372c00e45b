package io.cassette.storage.index;

/**
 * A storage-attached index as storage sees it: its name (unique in the table), the column it
 * reads, and either terms (equality and ranges by unsigned byte order of the terms) or vectors
 * of {@code dimensions} floats searched by {@code similarity}.
 *
 * <p>Definitions are given at run time by the front door ({@link TableIndexes#define}); two
 * definitions with the same name and shape index the same way, so files written under one are
 * read under the other.
 */
public record IndexDefinition(String name, String column, TermExtractor extractor, int dimensions,
                              VectorSimilarity similarity) {
  public static IndexDefinition terms(String name, String column, TermExtractor extractor) {
    return new IndexDefinition(name, column, extractor, 0, null);
  }

  public static IndexDefinition vector(String name, String column, TermExtractor extractor, int dimensions,
                                       VectorSimilarity similarity) {
    return new IndexDefinition(name, column, extractor, dimensions, similarity);
  }

  public boolean isVector() {
    return similarity != null;
  }

  /** Same files: same name, same kind, same vector shape. */
  boolean sameShape(IndexDefinition o) {
    return name.equals(o.name) && column.equals(o.column) && dimensions == o.dimensions && similarity == o.similarity;
  }
}
