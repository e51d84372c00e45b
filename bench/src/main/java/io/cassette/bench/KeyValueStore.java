package io.cassette.bench;

/** The operations the benchmark drives, implemented over Cassette's engine and RocksDB. */
public interface KeyValueStore extends AutoCloseable {
  String name();

  void put(byte[] partition, byte[] clustering, byte[] value);

  /** True if the row exists. */
  boolean get(byte[] partition, byte[] clustering);

  /** Reads up to {@code limit} rows of a partition from {@code start}; returns how many. */
  int slice(byte[] partition, byte[] start, int limit);

  /** Makes buffered data durable in files (flush memtables). */
  void flush();

  @Override
  void close();
}
