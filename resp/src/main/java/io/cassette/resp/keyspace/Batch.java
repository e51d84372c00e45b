package io.cassette.resp.keyspace;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
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
 * all or nothing after a crash). Every write of the batch carries the same timestamp T and
 * every deletion T-1: a command's deletions happen before its writes (delete a collection,
 * then re-create the key), and the clock guarantees earlier commands wrote at or before T-1.
 * Not thread-safe.
 */
public final class Batch {
  private final RedisTable table;
  private final long timestamp;
  private final long nowSeconds;
  private final Map<ByteBuffer, PartitionOps> partitions = new LinkedHashMap<>();
  /** Runs after the mutation is applied (cache updates must not run ahead of storage). */
  private final List<Runnable> afterCommit = new ArrayList<>();

  /**
   * The writes to one partition. A row written twice keeps only the last write: with one
   * timestamp per batch, a delete and a re-insert of the same row would otherwise tie, and
   * a tie goes to the tombstone.
   */
  private static final class PartitionOps {
    final byte[] key;
    DeletionTime partitionDeletion = DeletionTime.LIVE;
    final List<Slice> ranges = new ArrayList<>();
    final Map<ByteBuffer, Row> rows = new LinkedHashMap<>();

    PartitionOps(byte[] key) {
      this.key = key;
    }
  }

  /** Kept in step with the sub-rows this batch writes; null for none. */
  private final SubRowCache subRows;

  /** Kept in step with the members this batch writes and deletes; null for none. */
  private final MemberSets members;
  /** Collections whose member sets this batch changes: forgotten if the write fails. */
  private long[] touched = new long[4];
  private int touchedCount;

  Batch(RedisTable table, long timestamp, long nowSeconds, SubRowCache subRows, MemberSets members) {
    this.subRows = subRows;
    this.members = members;
    this.table = table;
    this.timestamp = timestamp;
    this.nowSeconds = nowSeconds;
  }

  private PartitionOps partition(byte[] key) {
    return partitions.computeIfAbsent(ByteBuffer.wrap(key), k -> new PartitionOps(key));
  }

  void putRow(byte[] partitionKey, byte[] clustering, byte[] value) {
    partition(partitionKey).rows.put(ByteBuffer.wrap(clustering), Row.of(clustering,
        List.of(Cell.live(RedisLayout.COLUMN, value, timestamp))));
  }

  void deleteRow(byte[] partitionKey, byte[] clustering) {
    partition(partitionKey).rows.put(ByteBuffer.wrap(clustering), new Row(clustering,
        LivenessInfo.EMPTY, new DeletionTime(timestamp - 1, nowSeconds), List.of()));
  }

  /** Deletes the whole partition; rows written to it earlier in this batch are dropped. */
  void deletePartition(byte[] partitionKey) {
    PartitionOps p = partition(partitionKey);
    p.partitionDeletion = new DeletionTime(timestamp - 1, nowSeconds);
    p.rows.clear();
    p.ranges.clear();
  }

  void deleteRange(byte[] partitionKey, Slice slice) {
    partition(partitionKey).ranges.add(slice);
  }

  /** Writes a sub-row of the collection {@code meta}. */
  public void putSub(KeyMeta meta, byte[] clustering, byte[] value) {
    putRow(RedisLayout.subKey(meta), clustering, value);
    if (subRows != null && SubRowCache.cacheable(clustering)) {
      long version = meta.cacheId();
      afterCommit(() -> subRows.put(version, clustering, value));
    }
    if (members != null && members.enabled()) {
      long id = touch(meta);
      afterCommit(() -> members.put(id, clustering, value));
    }
  }

  private long touch(KeyMeta meta) {
    long id = meta.cacheId();
    if (touchedCount == 0 || touched[touchedCount - 1] != id) {
      if (touchedCount == touched.length) {
        touched = java.util.Arrays.copyOf(touched, touchedCount * 2);
      }
      touched[touchedCount++] = id;
    }
    return id;
  }

  public void deleteSub(KeyMeta meta, byte[] clustering) {
    deleteRow(RedisLayout.subKey(meta), clustering);
    if (subRows != null && SubRowCache.cacheable(clustering)) {
      long version = meta.cacheId();
      afterCommit(() -> subRows.remove(version, clustering));
    }
    if (members != null && members.enabled()) {
      long id = touch(meta);
      afterCommit(() -> members.remove(id, clustering));
    }
  }

  /** Deletes the sub-rows of {@code meta} in {@code slice} (one range tombstone; never cached rows). */
  public void deleteSubRange(KeyMeta meta, Slice slice) {
    deleteRange(RedisLayout.subKey(meta), slice);
    if (members != null && members.enabled()) {
      long id = touch(meta);
      afterCommit(() -> members.forget(id)); // which members went is not known here
    }
  }

  /** Writes the element at {@code position} of list {@code meta}. */
  public void listPut(KeyMeta meta, long position, byte[] value) {
    putRow(RedisLayout.listChunkKey(meta, RedisLayout.chunkOf(position)),
        RedisLayout.listPosition(position), value);
  }

  public void listDelete(KeyMeta meta, long position) {
    deleteRow(RedisLayout.listChunkKey(meta, RedisLayout.chunkOf(position)),
        RedisLayout.listPosition(position));
  }

  /** Deletes positions {@code from} (inclusive) to {@code to} (exclusive) of list {@code meta}. */
  public void listDeleteRange(KeyMeta meta, long from, long to) {
    if (from >= to) {
      return;
    }
    for (long c = RedisLayout.chunkOf(from); c <= RedisLayout.chunkOf(to - 1); c++) {
      long lo = Math.max(from, RedisLayout.chunkStart(c));
      long hi = Math.min(to - 1, RedisLayout.chunkEnd(c));
      byte[] key = RedisLayout.listChunkKey(meta, c);
      if (lo == RedisLayout.chunkStart(c) && hi == RedisLayout.chunkEnd(c)) {
        deletePartition(key);
      } else {
        deleteRange(key, new Slice(RedisLayout.listPosition(lo), true,
            RedisLayout.listPosition(hi), true));
      }
    }
  }

  void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  /** Applies everything written so far; the batch may be reused afterwards. */
  public void commit() {
    if (partitions.isEmpty()) {
      afterCommit.clear();
      touchedCount = 0;
      return;
    }
    List<PartitionUpdate> updates = new ArrayList<>(partitions.size());
    for (PartitionOps p : partitions.values()) {
      PartitionUpdate.Builder b = PartitionUpdate.builder(RedisLayout.KEYSPACE, table.name(), p.key);
      if (!p.partitionDeletion.isLive()) {
        b.deletePartition(p.partitionDeletion);
      }
      for (Slice range : p.ranges) {
        b.deleteRange(range, new DeletionTime(timestamp - 1, nowSeconds));
      }
      for (Row r : p.rows.values()) {
        b.row(r);
      }
      updates.add(b.build());
    }
    partitions.clear();
    try {
      table.write(new Mutation(updates));
    } catch (RuntimeException e) {
      // Applied or not, or later (a ring's timeout): the member sets may no longer be true.
      for (int i = 0; i < touchedCount; i++) {
        members.forget(touched[i]);
      }
      touchedCount = 0;
      afterCommit.clear();
      throw e;
    }
    touchedCount = 0;
    KeyChanges.wroteSomething();
    for (Runnable r : afterCommit) {
      r.run();
    }
    afterCommit.clear();
  }
}
