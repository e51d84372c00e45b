package io.cassette.storage;

import java.util.Collection;
import java.util.Optional;

/**
 * The storage engine: tables of partitions in one data directory, made durable through one
 * commit log. Open it, create or get tables, apply mutations, read, scan, flush, compact,
 * snapshot, close. Thread-safe.
 *
 * <pre>{@code
 * try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
 *   Table t = engine.createTable(TableSpec.withDefaults("ks", "t", id));
 *   t.apply(update);
 *   PartitionView p = t.read(key, ReadQuery.all(nowInSeconds));
 * }
 * }</pre>
 */
public interface Engine extends AutoCloseable {

  /** Opens the directory, recovering tables from the catalog and replaying the commit log. */
  static Engine open(EngineOptions options) {
    return StorageEngine.open(options);
  }

  /** Creates a table, or returns the existing one with the same id. */
  Table createTable(TableSpec spec);

  /** Changes a table's options (compression, compaction, gc grace...); data is kept. */
  Table alterTable(TableSpec spec);

  Optional<Table> table(String keyspace, String name);

  Collection<Table> tables();

  /** Removes the table and its files. */
  void dropTable(String keyspace, String name);

  /**
   * Makes the mutation durable as {@link CommitLogSync} says, then visible to reads. Throws
   * {@link StorageException} (e.g. disk full) without having applied any part of it.
   */
  void apply(Mutation mutation);

  /** Flushes every table. */
  void flush();

  /**
   * Stops writes for good, as Cassandra's {@code nodetool drain}: waits for writes in flight,
   * flushes every table and syncs the commit log. Afterwards {@link #apply} and truncation
   * throw {@link StorageException} ("drained"); reads, flushes and compactions go on. Only a
   * restart (a new {@code open}) accepts writes again.
   */
  void drain();

  /** True once {@link #drain} has begun. */
  boolean isDrained();

  /**
   * Registers the one listener told of fsyncs, flushes and compactions as they finish
   * (replacing any earlier one).
   */
  void listen(StorageListener listener);

  /**
   * Changes when writes are acknowledged, at once: {@code period} is the fsync interval in
   * periodic mode (Redis's CONFIG SET appendfsync maps onto this).
   */
  void setCommitLogSync(CommitLogSync mode, java.time.Duration period);

  /** Changes the compaction I/O cap at once; 0 = unthrottled (nodetool setcompactionthroughput). */
  void setCompactionThroughput(long bytesPerSecond);

  /**
   * Engine-wide counters: memtable memory and write stalls, commit-log fsyncs and
   * back-pressure, flushes and compactions.
   */
  default StorageMetrics metrics() {
    return StorageMetrics.EMPTY;
  }

  /** Flushes memtables, syncs the commit log and stops background work. */
  @Override
  void close();
}
