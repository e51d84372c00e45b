package io.cassette.resp.keyspace;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.Engine;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of one Redis command, applied as one {@link Mutation} (one commit-log record:
 * all or nothing after a crash). Every write of the batch carries the same timestamp.
 * Not thread-safe.
 */
public final class Batch {
  private final Engine engine;
  private final String table;
  private final long timestamp;
  private final long nowSeconds;
  private final Map<ByteBuffer, PartitionUpdate.Builder> partitions = new LinkedHashMap<>();

  Batch(Engine engine, String table, long timestamp, long nowSeconds) {
    this.engine = engine;
    this.table = table;
    this.timestamp = timestamp;
    this.nowSeconds = nowSeconds;
  }

  public long timestamp() {
    return timestamp;
  }

  private PartitionUpdate.Builder partition(byte[] key) {
    return partitions.computeIfAbsent(ByteBuffer.wrap(key),
        k -> PartitionUpdate.builder(RedisLayout.KEYSPACE, table, key));
  }

  void putRow(byte[] partitionKey, byte[] clustering, byte[] value) {
    partition(partitionKey).row(Row.of(clustering,
        List.of(Cell.live(RedisLayout.COLUMN, value, timestamp))));
  }

  void deleteRow(byte[] partitionKey, byte[] clustering) {
    partition(partitionKey).row(new Row(clustering, io.cassette.storage.LivenessInfo.EMPTY,
        new DeletionTime(timestamp, nowSeconds), List.of()));
  }

  void deletePartition(byte[] partitionKey) {
    partition(partitionKey).deletePartition(new DeletionTime(timestamp, nowSeconds));
  }

  void deleteRange(byte[] partitionKey, Slice slice) {
    partition(partitionKey).deleteRange(slice, new DeletionTime(timestamp, nowSeconds));
  }

  /** Writes a sub-row of the collection {@code meta}. */
  public void putSub(KeyMeta meta, byte[] clustering, byte[] value) {
    putRow(RedisLayout.subKey(meta.version), clustering, value);
  }

  public void deleteSub(KeyMeta meta, byte[] clustering) {
    deleteRow(RedisLayout.subKey(meta.version), clustering);
  }

  public void deleteSubRange(KeyMeta meta, Slice slice) {
    deleteRange(RedisLayout.subKey(meta.version), slice);
  }

  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  /** Applies everything written so far; the batch may be reused afterwards. */
  public void commit() {
    if (partitions.isEmpty()) {
      return;
    }
    List<PartitionUpdate> updates = new ArrayList<>(partitions.size());
    for (PartitionUpdate.Builder b : partitions.values()) {
      updates.add(b.build());
    }
    partitions.clear();
    engine.apply(new Mutation(updates));
  }
}
