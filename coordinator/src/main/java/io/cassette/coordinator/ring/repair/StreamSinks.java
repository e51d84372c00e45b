package io.cassette.coordinator.ring.repair;

import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.SSTableSink;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streams this node receives into new SSTables ({@link SSTableSink}) instead of applying
 * them as writes: one per (sender, keyspace, table) while a ring change pulls that table's
 * ranges from that sender. Batches of other streams (repair's, or a sender with no open sink)
 * are not taken and go through the write path as before.
 *
 * <p>A batch sent again (its acknowledgement lost) carries the sequence number of one already
 * taken and is skipped: each batch lands once.
 */
final class StreamSinks {
  private record Key(InetAddress from, String keyspace, String table) {}

  /** One open stream: its sink and the last batch it took. */
  private static final class Open {
    final SSTableSink sink;
    int lastSequence = -1;

    Open(SSTableSink sink) {
      this.sink = sink;
    }
  }

  private final ConcurrentHashMap<Key, Open> open = new ConcurrentHashMap<>();

  /** Routes {@code from}'s batches of the table into {@code sink} until {@link #close}. */
  void open(InetAddress from, String keyspace, String table, SSTableSink sink) {
    if (open.putIfAbsent(new Key(from, keyspace, table), new Open(sink)) != null) {
      sink.abort();
      throw new RepairException("a stream of " + keyspace + "." + table + " from " + from.getHostAddress()
          + " is already being received");
    }
  }

  /** Stops routing; returns the sink for the caller to commit or abort. */
  SSTableSink close(InetAddress from, String keyspace, String table) {
    Open o = open.remove(new Key(from, keyspace, table));
    if (o == null) {
      return null;
    }
    synchronized (o) { // a batch being taken finishes first
      return o.sink;
    }
  }

  /**
   * Takes a verified batch when a sink is open for its sender and table; false when none is
   * (the caller applies it as a write).
   */
  boolean offer(InetAddress from, int sequence, List<PartitionUpdate> partitions) {
    if (open.isEmpty() || partitions.isEmpty()) {
      return false;
    }
    PartitionUpdate first = partitions.get(0);
    Open o = open.get(new Key(from, first.keyspace(), first.table()));
    if (o == null) {
      return false;
    }
    synchronized (o) {
      if (sequence <= o.lastSequence) {
        return true; // a resend of a batch already taken
      }
      for (PartitionUpdate u : partitions) {
        if (!u.keyspace().equals(first.keyspace()) || !u.table().equals(first.table())) {
          throw new IllegalArgumentException("stream batch mixes tables: " + first.keyspace() + "." + first.table()
              + " and " + u.keyspace() + "." + u.table());
        }
      }
      partitions.forEach(o.sink::add);
      o.lastSequence = sequence;
      return true;
    }
  }
}
