package io.cassette.metrics;

/**
 * Names of the events the {@link LatencyMonitor} records, one per place a node can stall. The
 * doctor gives specific advice for each; other names are accepted and reported plainly.
 */
public final class LatencyEvents {
  /** One fsync of the commit log (context: the segment file). */
  public static final String COMMITLOG_FSYNC = "commitlog-fsync";
  /** One memtable written to an SSTable (context: keyspace.table). */
  public static final String MEMTABLE_FLUSH = "memtable-flush";
  /** One compaction task (context: keyspace.table and the SSTable count). */
  public static final String COMPACTION = "compaction";
  /** One stop-the-world garbage-collection pause (context: collector and cause). */
  public static final String GC_PAUSE = "gc-pause";
  /** One CQL request, from frame decoded to response written (context: the request type). */
  public static final String REQUEST_CQL = "request-cql";
  /** One Redis command, from parsed to reply written (context: the command name). */
  public static final String REQUEST_RESP = "request-resp";
  /** Writes refused for lack of space, from the first refusal to the first write that fit. */
  public static final String DISK_FULL = "disk-full";

  private LatencyEvents() {}

  /** {@code request-<door>} for a front door named {@code door}. */
  public static String request(String door) {
    return "request-" + door;
  }
}
