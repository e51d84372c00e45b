package io.cassette.storage.index;

import io.cassette.storage.Cell;
import java.util.function.Consumer;

/**
 * What an index takes from one live cell of its column: zero or more terms, each encoded so
 * that unsigned byte order is the column type's order (the front door knows the types; storage
 * only compares bytes). A vector index's single term is the vector's serialized floats.
 */
@FunctionalInterface
public interface TermExtractor {
  void terms(Cell cell, Consumer<byte[]> out);
}
