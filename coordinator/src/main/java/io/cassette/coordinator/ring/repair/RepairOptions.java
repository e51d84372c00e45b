package io.cassette.coordinator.ring.repair;

import java.util.List;

/**
 * What {@code nodetool repair [-pr] [-full] [KEYSPACE [TABLE...]]} asks for.
 *
 * @param keyspace      null: every keyspace replicated on more than this node
 * @param tables        empty: every table of the keyspace
 * @param primaryRange  -pr: only the ranges this node is the primary replica of
 * @param full          -full: Cassette has no repaired/unrepaired split, so every repair is
 *                      full; the flag is kept for the options line
 * @param depth         Merkle tree depth (at most {@link MerkleTree#MAX_DEPTH})
 */
public record RepairOptions(String keyspace, List<String> tables, boolean primaryRange, boolean full, int depth) {
  public RepairOptions {
    tables = List.copyOf(tables);
    if (depth < 0 || depth > MerkleTree.MAX_DEPTH) {
      throw new IllegalArgumentException("depth: " + depth + " (expected: 0.." + MerkleTree.MAX_DEPTH + ")");
    }
    if (keyspace == null && !tables.isEmpty()) {
      throw new IllegalArgumentException("tables need a keyspace");
    }
  }

  public static RepairOptions of(String keyspace, List<String> tables, boolean primaryRange, boolean full) {
    return new RepairOptions(keyspace, tables, primaryRange, full, MerkleTree.MAX_DEPTH);
  }

  /** The options as Cassandra's "Starting repair command" line shows them. */
  String describe(int ranges) {
    return "repair options (parallelism: parallel, primary range: " + primaryRange + ", incremental: false"
        + ", job threads: 1, ColumnFamilies: " + tables + ", dataCenters: [], hosts: [], previewKind: NONE"
        + ", # of ranges: " + ranges + ", pull repair: false, force repair: false, optimise streams: false"
        + ", ignore unreplicated keyspaces: false, repairPaxos: false, paxosOnly: false)";
  }
}
