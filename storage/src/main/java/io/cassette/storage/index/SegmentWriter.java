package io.cassette.storage.index;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.Row;

/**
 * Builds one index component from an SSTable's rows. REQUIRES: rows in primary-key order,
 * each with its cells as stored (tombstones are skipped by the writer).
 */
interface SegmentWriter {
  void row(DecoratedKey partition, Row row);

  /** Writes what is left and renames the file into place. */
  void finish();
}
