package io.cassette.coordinator.ring.repair;

/**
 * What one repair command did, for its last progress lines and for tests.
 *
 * @param ranges             token ranges repaired
 * @param tables             tables repaired
 * @param validations        Merkle trees built (one per replica, table and range)
 * @param outOfSync          (range, table, replica pair)s whose trees differed
 * @param partitions         partitions streamed (both directions, all pairs)
 * @param rows               rows streamed
 * @param bytes              bytes of streamed batches
 * @param batches            batches streamed
 * @param retries            batches sent again (lost or refused as damaged)
 * @param validationMillis   time spent building and comparing trees
 * @param streamingMillis    time spent streaming
 * @param totalMillis        the whole command
 */
public record RepairSummary(int ranges, int tables, long validations, long outOfSync, long partitions, long rows,
                            long bytes, long batches, long retries, long validationMillis, long streamingMillis,
                            long totalMillis) {
  /** One line, e.g. "Repair summary: 48 ranges, 1 table, 3 out of sync, 120 partitions (120 rows, 12 KiB) streamed ...". */
  public String line() {
    return "Repair summary: " + ranges + " ranges, " + tables + (tables == 1 ? " table" : " tables") + ", "
        + validations + " Merkle trees, " + outOfSync + " range/replica pairs out of sync, " + partitions
        + " partitions (" + rows + " rows, " + bytes + " bytes in " + batches + " batches, " + retries
        + " retries) streamed; validation " + validationMillis + " ms, streaming " + streamingMillis + " ms, total "
        + totalMillis + " ms";
  }
}
