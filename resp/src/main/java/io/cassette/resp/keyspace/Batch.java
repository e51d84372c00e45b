package io.cassette.resp.keyspace;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
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
  /**
   * The first partition written. Most commands (SET, INCR, a one-field HSET) write one row of
   * one partition: that case allocates no map, list or iterator of its own (it was about a third
   * of an unpipelined SET's allocation); {@link #more} is made for a second partition only.
   */
  private PartitionOps first;
  /** The partitions after {@link #first}, in the order first written; null until needed. */
  private Map<ByteBuffer, PartitionOps> more;
  /** Runs after the mutation is applied (cache updates must not run ahead of storage). */
  private Runnable firstAfterCommit;
  /** The actions after {@link #firstAfterCommit}; null until a second one. */
  private List<Runnable> afterCommit;

  /**
   * The writes to one partition. A row written twice keeps only the last write: with one
   * timestamp per batch, a delete and a re-insert of the same row would otherwise tie, and
   * a tie goes to the tombstone. The first row is held in a field, a map is made for a second.
   */
  private static final class PartitionOps {
    final byte[] key;
    DeletionTime partitionDeletion = DeletionTime.LIVE;
    List<Slice> ranges;
    Row oneRow;
    Map<ByteBuffer, Row> rows;

    PartitionOps(byte[] key) {
      this.key = key;
    }

    void put(Row row) {
      if (rows == null) {
        if (oneRow == null || Arrays.equals(oneRow.clustering(), row.clustering())) {
          oneRow = row;
          return;
        }
        rows = new LinkedHashMap<>();
        rows.put(ByteBuffer.wrap(oneRow.clustering()), oneRow);
        oneRow = null;
      }
      rows.put(ByteBuffer.wrap(row.clustering()), row);
    }

    void clearRows() {
      oneRow = null;
      rows = null;
      ranges = null;
    }

    PartitionUpdate update(String table, long timestamp, long nowSeconds) {
      List<RangeTombstone> tombstones = List.of();
      if (ranges != null) {
        DeletionTime d = new DeletionTime(timestamp - 1, nowSeconds);
        List<RangeTombstone> l = new ArrayList<>(ranges.size());
        for (Slice range : ranges) {
          l.add(new RangeTombstone(range, d));
        }
        tombstones = l;
      }
      List<Row> list = rows != null ? new ArrayList<>(rows.values())
          : oneRow != null ? List.of(oneRow) : List.of();
      return new PartitionUpdate(RedisLayout.KEYSPACE, table, key, partitionDeletion, tombstones, list);
    }
  }

  /** Kept in step with the sub-rows this batch writes; null for none. */
  private final SubRowCache subRows;

  /** Kept in step with the members this batch writes and deletes; null for none. */
  private final MemberSets members;
  /** Collections whose member sets this batch changes: forgotten if the write fails. */
  private long[] touched;
  private int touchedCount;

  Batch(RedisTable table, long timestamp, long nowSeconds, SubRowCache subRows, MemberSets members) {
    this.subRows = subRows;
    this.members = members;
    this.table = table;
    this.timestamp = timestamp;
    this.nowSeconds = nowSeconds;
  }

  private PartitionOps partition(byte[] key) {
    if (first == null) {
      first = new PartitionOps(key);
      return first;
    }
    if (Arrays.equals(first.key, key)) {
      return first;
    }
    if (more == null) {
      more = new LinkedHashMap<>();
    }
    return more.computeIfAbsent(ByteBuffer.wrap(key), k -> new PartitionOps(key));
  }

  void putRow(byte[] partitionKey, byte[] clustering, byte[] value) {
    partition(partitionKey).put(Row.of(clustering,
        List.of(Cell.live(RedisLayout.COLUMN, value, timestamp))));
  }

  void deleteRow(byte[] partitionKey, byte[] clustering) {
    partition(partitionKey).put(new Row(clustering,
        LivenessInfo.EMPTY, new DeletionTime(timestamp - 1, nowSeconds), List.of()));
  }

  /** Deletes the whole partition; rows written to it earlier in this batch are dropped. */
  void deletePartition(byte[] partitionKey) {
    PartitionOps p = partition(partitionKey);
    p.partitionDeletion = new DeletionTime(timestamp - 1, nowSeconds);
    p.clearRows();
  }

  void deleteRange(byte[] partitionKey, Slice slice) {
    PartitionOps p = partition(partitionKey);
    if (p.ranges == null) {
      p.ranges = new ArrayList<>(2);
    }
    p.ranges.add(slice);
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
      if (touched == null) {
        touched = new long[4]; // made by collection writes only
      } else if (touchedCount == touched.length) {
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
    if (firstAfterCommit == null) {
      firstAfterCommit = action;
      return;
    }
    if (afterCommit == null) {
      afterCommit = new ArrayList<>();
    }
    afterCommit.add(action);
  }

  private void clearAfterCommit() {
    firstAfterCommit = null;
    afterCommit = null;
  }

  public boolean isEmpty() {
    return first == null;
  }

  /** Applies everything written so far; the batch may be reused afterwards. */
  public void commit() {
    if (first == null) {
      clearAfterCommit();
      touchedCount = 0;
      return;
    }
    List<PartitionUpdate> updates;
    if (more == null) {
      updates = List.of(first.update(table.name(), timestamp, nowSeconds));
    } else {
      updates = new ArrayList<>(1 + more.size());
      updates.add(first.update(table.name(), timestamp, nowSeconds));
      for (PartitionOps p : more.values()) {
        updates.add(p.update(table.name(), timestamp, nowSeconds));
      }
    }
    first = null;
    more = null;
    try {
      table.write(new Mutation(updates));
    } catch (RuntimeException e) {
      // Applied or not, or later (a ring's timeout): the member sets may no longer be true.
      for (int i = 0; i < touchedCount; i++) {
        members.forget(touched[i]);
      }
      touchedCount = 0;
      clearAfterCommit();
      throw e;
    }
    touchedCount = 0;
    KeyChanges.wroteSomething();
    Runnable one = firstAfterCommit;
    List<Runnable> rest = afterCommit;
    clearAfterCommit();
    if (one != null) {
      one.run();
    }
    if (rest != null) {
      for (Runnable r : rest) {
        r.run();
      }
    }
  }
}
