package io.cassette.coordinator.ring.repair;

import io.cassette.coordinator.ring.Range;
import io.cassette.storage.StorageException;
import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.DataReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Payloads of repair's requests, each starting with a version byte:
 * <pre>
 * VALIDATION_REQ := version | keyspace | table | range start, end (longs) | depth | nowInSeconds (varlong)
 * VALIDATION_RSP := MerkleTree.encode()
 * SYNC_REQ       := version | keyspace | table | peer address (length-prefixed bytes)
 *                   | nowInSeconds | count | (start, end)...        -- "stream these ranges to peer"
 * SYNC_RSP       := version | partitions | rows | bytes | batches | retries (varlongs)
 * </pre>
 * Strings and bytes are length-prefixed as in storage's {@code DataWriter}. The streamed batches
 * themselves are {@link StreamBatch}.
 */
final class RepairMessages {
  static final int VERSION = 1;

  private RepairMessages() {}

  /** Build the tree of {@code range} of a table at {@code depth}, reading at {@code nowInSeconds}. */
  record ValidationRequest(String keyspace, String table, Range range, int depth, long nowInSeconds) {}

  /** Stream what this node holds of {@code ranges} of a table to {@code peer}. */
  record SyncRequest(String keyspace, String table, InetAddress peer, List<Range> ranges, long nowInSeconds) {}

  /** What one direction of a sync sent. */
  record SyncResult(long partitions, long rows, long bytes, long batches, long retries) {
    static final SyncResult NONE = new SyncResult(0, 0, 0, 0, 0);

    SyncResult plus(SyncResult o) {
      return new SyncResult(partitions + o.partitions, rows + o.rows, bytes + o.bytes, batches + o.batches,
          retries + o.retries);
    }
  }

  static byte[] encode(ValidationRequest r) {
    ByteArrayWriter out = new ByteArrayWriter(64);
    out.writeByte(VERSION);
    out.writeString(r.keyspace());
    out.writeString(r.table());
    out.writeLong(r.range().start());
    out.writeLong(r.range().end());
    out.writeByte(r.depth());
    out.writeVarLong(r.nowInSeconds());
    return out.toByteArray();
  }

  static ValidationRequest validation(byte[] payload) {
    DataReader in = reader(payload);
    return new ValidationRequest(in.readString(), in.readString(), new Range(in.readLong(), in.readLong()),
        in.readByte(), in.readVarLong());
  }

  static byte[] encode(SyncRequest r) {
    ByteArrayWriter out = new ByteArrayWriter(64 + 16 * r.ranges().size());
    out.writeByte(VERSION);
    out.writeString(r.keyspace());
    out.writeString(r.table());
    out.writeLengthPrefixed(r.peer().getAddress());
    out.writeVarLong(r.nowInSeconds());
    out.writeVarInt(r.ranges().size());
    for (Range range : r.ranges()) {
      out.writeLong(range.start());
      out.writeLong(range.end());
    }
    return out.toByteArray();
  }

  static SyncRequest sync(byte[] payload) {
    DataReader in = reader(payload);
    String ks = in.readString();
    String table = in.readString();
    InetAddress peer;
    try {
      peer = InetAddress.getByAddress(in.readLengthPrefixed(16));
    } catch (UnknownHostException e) {
      throw new StorageException("SYNC_REQ with a bad peer address: " + e.getMessage());
    }
    long now = in.readVarLong();
    int n = in.readVarInt();
    if (n > 1 << 20) {
      throw new StorageException("SYNC_REQ with " + n + " ranges (expected: <= " + (1 << 20) + ")");
    }
    List<Range> ranges = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ranges.add(new Range(in.readLong(), in.readLong()));
    }
    return new SyncRequest(ks, table, peer, ranges, now);
  }

  static byte[] encode(SyncResult r) {
    ByteArrayWriter out = new ByteArrayWriter(32);
    out.writeByte(VERSION);
    out.writeVarLong(r.partitions());
    out.writeVarLong(r.rows());
    out.writeVarLong(r.bytes());
    out.writeVarLong(r.batches());
    out.writeVarLong(r.retries());
    return out.toByteArray();
  }

  static SyncResult syncResult(byte[] payload) {
    DataReader in = reader(payload);
    return new SyncResult(in.readVarLong(), in.readVarLong(), in.readVarLong(), in.readVarLong(), in.readVarLong());
  }

  private static DataReader reader(byte[] payload) {
    if (payload.length == 0 || payload[0] != VERSION) {
      throw new StorageException("repair message version " + (payload.length == 0 ? "(empty)" : payload[0])
          + " (expected: " + VERSION + ")");
    }
    return new ByteArrayReader(payload, 1, payload.length - 1);
  }
}
