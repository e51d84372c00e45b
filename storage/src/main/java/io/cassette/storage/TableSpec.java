package io.cassette.storage;

import java.util.Map;
import java.util.UUID;

/**
 * How storage keeps one table: identity and the options that matter below CQL. The engine
 * persists specs in its catalog so it can replay the commit log before any front door starts.
 *
 * @param compression Cassandra's map, e.g. {@code {class: LZ4Compressor, chunk_length_in_kb: 16}};
 *                    {@code {enabled: false}} for none
 * @param compaction  Cassandra's map, e.g. {@code {class: SizeTieredCompactionStrategy}} or
 *                    {@code {class: TimeWindowCompactionStrategy, compaction_window_unit: DAYS,
 *                    compaction_window_size: 1}}
 */
public record TableSpec(String keyspace, String name, UUID id, Map<String, String> compression,
                        Map<String, String> compaction, int gcGraceSeconds,
                        double bloomFilterFpChance, int defaultTimeToLive) {

  public TableSpec {
    compression = Map.copyOf(compression);
    compaction = Map.copyOf(compaction);
  }

  /** A table with Cassandra 5.0's default options. */
  public static TableSpec withDefaults(String keyspace, String name, UUID id) {
    return new TableSpec(keyspace, name, id,
        Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "16"),
        Map.of("class", "SizeTieredCompactionStrategy"), 864000, 0.01, 0);
  }
}
