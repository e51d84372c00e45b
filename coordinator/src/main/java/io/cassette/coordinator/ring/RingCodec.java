package io.cassette.coordinator.ring;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.StorageException;
import io.cassette.storage.index.IndexExpression;
import io.cassette.storage.index.IndexQuery;
import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.io.DataWriter;
import io.cassette.storage.partition.PartitionSerializer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * The payloads of the coordinator's internode verbs. Every payload starts with a version byte
 * ({@link #VERSION}); rows, cells and tombstones use storage's {@link PartitionSerializer}
 * layouts (as in the commit log), tables are named by keyspace and name (table ids are per
 * node until the metadata log carries them everywhere).
 *
 * <pre>
 * read     := v ks:str table:str key:bytes query [flags:u8 (1 digest, 2 unfiltered)]
 * digest   := v sha256:bytes          (the answer to a digest read)
 * unfiltered := v update-body         (the answer to an unfiltered data read: the partition with
 *                                      its tombstones, in PartitionSerializer's update layout)
 * range    := v ks:str table:str keyRange query maxPartitions:varint maxBytes:varint
 *             [flags:u8 (1 unfiltered, 2 index) [index]]
 * index    := 0 count:varint (name:str flags:u8 (1 lower, 2 lower incl, 4 upper, 8 upper incl) [lower:bytes] [upper:bytes])*
 *           | 1 name:str dims:varint f32* k:varint      (ANN: the replica's k nearest in the range)
 * mutation := v count:varint update*            update := ks:str table:str key:bytes flags:u8
 *                                                  [deletion] [rtCount rt*] rowCount row*
 * truncate := v ks:str table:str
 * commit   := v ks:str table:str key:bytes counter:u8 reads:varint (query digest:bytes)* mutation-body
 * view     := v partition               page := v count:varint partition* exhausted:u8
 * unfiltered page := v count:varint update-body* exhausted:u8   (the answer to an unfiltered range)
 * query    := slices:varint (flags:u8 start:bytes end:bytes)* reversed:u8 rowLimit:i32 now:i64
 * keyRange := flags:u8 (1 after, 2 after.key) [token:i64] [key:bytes] end:i64
 * partition:= token:i64 key:bytes hasStatic:u8 [row] rowCount:varint row*
 * </pre>
 */
final class RingCodec {
  /** Bumped when a layout changes; a payload of another version is refused. */
  static final int VERSION = 1;
  private static final VersionedPayload FORMAT = new VersionedPayload(VERSION, "ring payload");

  private RingCodec() {}

  // ------------------------------------------------------------------ requests

  /**
   * A read of one partition; {@code digest}: answer with the digest of the data, not the data;
   * {@code unfiltered}: the data is the partition with its tombstones ({@code Table.readUnfiltered}),
   * else the live view.
   */
  record ReadRequest(String keyspace, String table, byte[] key, ReadQuery query, boolean digest, boolean unfiltered) {
    ReadRequest(String keyspace, String table, byte[] key, ReadQuery query) {
      this(keyspace, table, key, query, false, false);
    }
  }

  /** {@code unfiltered}: answer with the partitions and their tombstones ({@link #unfilteredPage}). */
  record RangeRequest(String keyspace, String table, KeyRange range, ReadQuery query, int maxPartitions,
                      int maxBytes, boolean unfiltered, IndexQuery index) {
    RangeRequest(String keyspace, String table, KeyRange range, ReadQuery query, int maxPartitions, int maxBytes) {
      this(keyspace, table, range, query, maxPartitions, maxBytes, false, null);
    }

    RangeRequest(String keyspace, String table, KeyRange range, ReadQuery query, int maxPartitions, int maxBytes,
                 boolean unfiltered) {
      this(keyspace, table, range, query, maxPartitions, maxBytes, unfiltered, null);
    }
  }

  record TableRef(String keyspace, String table) {}

  /** A conditional write: apply {@code updates} only if each read still answers the same. */
  record CommitRequest(String keyspace, String table, byte[] key, boolean counter, List<ReadQuery> reads,
                       List<byte[]> digests, List<PartitionUpdate> updates) {}

  /** A page of a range: the partitions, and whether the range has no more after them. */
  record Page(List<PartitionView> partitions, boolean exhausted) {}

  /** A page of an unfiltered range: the partitions with their tombstones. */
  record UnfilteredPage(List<PartitionUpdate> partitions, boolean exhausted) {}

  static byte[] read(ReadRequest r) {
    ByteArrayWriter out = FORMAT.writer(64);
    out.writeString(r.keyspace());
    out.writeString(r.table());
    out.writeLengthPrefixed(r.key());
    writeQuery(out, r.query());
    if (r.digest() || r.unfiltered()) {
      out.writeByte((r.digest() ? 1 : 0) | (r.unfiltered() ? 2 : 0)); // optional trailing flags: absent means a live data read
    }
    return out.toByteArray();
  }

  static ReadRequest read(byte[] payload) {
    ByteArrayReader in = (ByteArrayReader) FORMAT.reader(payload);
    String ks = in.readString();
    String table = in.readString();
    byte[] key = VersionedPayload.bytes(in);
    ReadQuery q = readQuery(in);
    int flags = in.remaining() > 0 ? in.readByte() : 0;
    return new ReadRequest(ks, table, key, q, (flags & 1) != 0, (flags & 2) != 0);
  }

  /** A digest answer: the digest of the replica's view ({@link #digest(PartitionView)}). */
  static byte[] digestAnswer(byte[] digest) {
    ByteArrayWriter out = FORMAT.writer(40);
    out.writeLengthPrefixed(digest);
    return out.toByteArray();
  }

  /** The digest a digest answer carries. */
  static byte[] readDigest(byte[] payload) {
    return VersionedPayload.bytes(FORMAT.reader(payload));
  }

  static byte[] range(RangeRequest r) {
    ByteArrayWriter out = FORMAT.writer(64);
    out.writeString(r.keyspace());
    out.writeString(r.table());
    DecoratedKey after = r.range().after();
    out.writeByte((after != null ? 1 : 0) | (after != null && after.key() != null ? 2 : 0));
    if (after != null) {
      out.writeLong(after.token());
      if (after.key() != null) {
        out.writeLengthPrefixed(after.key());
      }
    }
    out.writeLong(r.range().endToken());
    writeQuery(out, r.query());
    out.writeVarInt(r.maxPartitions());
    out.writeVarInt(r.maxBytes());
    if (r.unfiltered() || r.index() != null) {
      // optional trailing flags: absent means live partitions of a plain scan
      out.writeByte((r.unfiltered() ? 1 : 0) | (r.index() != null ? 2 : 0));
    }
    if (r.index() != null) {
      writeIndex(out, r.index());
    }
    return out.toByteArray();
  }

  static RangeRequest range(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    String ks = in.readString();
    String table = in.readString();
    int flags = in.readByte();
    DecoratedKey after = null;
    if ((flags & 1) != 0) {
      long token = in.readLong();
      after = new DecoratedKey(token, (flags & 2) != 0 ? VersionedPayload.bytes(in) : null);
    }
    KeyRange range = new KeyRange(after, in.readLong());
    ReadQuery q = readQuery(in);
    int maxPartitions = in.readVarInt();
    int maxBytes = in.readVarInt();
    int trailing = ((ByteArrayReader) in).remaining() > 0 ? in.readByte() : 0;
    IndexQuery index = (trailing & 2) != 0 ? readIndex(in) : null;
    return new RangeRequest(ks, table, range, q, maxPartitions, maxBytes, (trailing & 1) != 0, index);
  }

  static byte[] mutation(List<PartitionUpdate> updates) {
    return mutation(updates, null);
  }

  /**
   * A MUTATION_REQ payload; a {@code fence} (null: none) follows the updates as optional trailing
   * bytes (1 | lease | epoch), so hints and batch logs, which keep payloads without one, read alike.
   */
  static byte[] mutation(List<PartitionUpdate> updates, io.cassette.coordinator.Fence fence) {
    ByteArrayWriter out = FORMAT.writer(128);
    writeUpdates(out, updates);
    if (fence != null) {
      out.writeByte(1);
      out.writeString(fence.lease());
      out.writeLong(fence.epoch());
    }
    return out.toByteArray();
  }

  /** A decoded MUTATION_REQ: its updates and the writer's fence (null: none). */
  record MutationRequest(List<PartitionUpdate> updates, io.cassette.coordinator.Fence fence) {}

  static MutationRequest mutationRequest(byte[] payload) {
    ByteArrayReader in = (ByteArrayReader) FORMAT.reader(payload);
    List<PartitionUpdate> updates = readUpdates(in);
    io.cassette.coordinator.Fence fence = null;
    if (in.remaining() > 0 && in.readByte() == 1) {
      fence = new io.cassette.coordinator.Fence(in.readString(), in.readLong());
    }
    return new MutationRequest(updates, fence);
  }

  static List<PartitionUpdate> mutation(byte[] payload) {
    return readUpdates(FORMAT.reader(payload));
  }

  static byte[] truncate(TableRef t) {
    ByteArrayWriter out = FORMAT.writer(32);
    out.writeString(t.keyspace());
    out.writeString(t.table());
    return out.toByteArray();
  }

  static TableRef truncate(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    return new TableRef(in.readString(), in.readString());
  }

  static byte[] commit(CommitRequest c) {
    ByteArrayWriter out = FORMAT.writer(128);
    out.writeString(c.keyspace());
    out.writeString(c.table());
    out.writeLengthPrefixed(c.key());
    out.writeByte(c.counter() ? 1 : 0);
    out.writeVarInt(c.reads().size());
    for (int i = 0; i < c.reads().size(); i++) {
      writeQuery(out, c.reads().get(i));
      out.writeLengthPrefixed(c.digests().get(i));
    }
    writeUpdates(out, c.updates());
    return out.toByteArray();
  }

  static CommitRequest commit(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    String ks = in.readString();
    String table = in.readString();
    byte[] key = VersionedPayload.bytes(in);
    boolean counter = in.readByte() != 0;
    int n = count(in);
    List<ReadQuery> reads = new ArrayList<>(n);
    List<byte[]> digests = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      reads.add(readQuery(in));
      digests.add(VersionedPayload.bytes(in));
    }
    return new CommitRequest(ks, table, key, counter, reads, digests, readUpdates(in));
  }

  // ------------------------------------------------------------------ responses

  static byte[] view(PartitionView v) {
    ByteArrayWriter out = FORMAT.writer(128);
    writePartition(out, v);
    return out.toByteArray();
  }

  static PartitionView view(byte[] payload) {
    return readPartition(FORMAT.reader(payload));
  }

  /** The answer to an unfiltered read: the partition with its tombstones, as an update body. */
  static byte[] unfiltered(PartitionUpdate u) {
    ByteArrayWriter out = FORMAT.writer(128);
    PartitionSerializer.writeUpdateBody(out, u);
    return out.toByteArray();
  }

  static PartitionUpdate unfiltered(byte[] payload, String keyspace, String table) {
    return PartitionSerializer.readUpdateBody(FORMAT.reader(payload), keyspace, table);
  }

  /** The digest of an unfiltered answer: SHA-256 of its update body (replicas agree on tombstones too). */
  static byte[] digest(PartitionUpdate u) {
    ByteArrayWriter out = new ByteArrayWriter(128);
    PartitionSerializer.writeUpdateBody(out, u);
    return sha256(out);
  }

  /** The partition's bytes without the version: what a compare-and-set read saw, as a digest. */
  static byte[] digest(PartitionView v) {
    ByteArrayWriter out = new ByteArrayWriter(128);
    writePartition(out, v);
    return sha256(out);
  }

  private static byte[] sha256(ByteArrayWriter out) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(out.buffer(), 0, out.length());
      return md.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A page writer: partitions are added until the caller's budget says stop. */
  static final class PageWriter {
    private final ByteArrayWriter out = new ByteArrayWriter(1024);
    private int count;

    void add(PartitionView v) {
      writePartition(out, v);
      count++;
    }

    void add(PartitionUpdate u) {
      PartitionSerializer.writeUpdateBody(out, u);
      count++;
    }

    int bytes() {
      return out.length();
    }

    int count() {
      return count;
    }

    byte[] finish(boolean exhausted) {
      ByteArrayWriter head = FORMAT.writer(8 + out.length());
      head.writeVarInt(count);
      head.writeBytes(out.buffer(), 0, out.length());
      head.writeByte(exhausted ? 1 : 0);
      return head.toByteArray();
    }
  }

  static Page page(byte[] payload) {
    DataReader in = FORMAT.reader(payload);
    int n = count(in);
    List<PartitionView> out = new ArrayList<>(Math.min(n, 4096));
    for (int i = 0; i < n; i++) {
      out.add(readPartition(in));
    }
    return new Page(out, in.readByte() != 0);
  }

  static UnfilteredPage unfilteredPage(byte[] payload, String keyspace, String table) {
    DataReader in = FORMAT.reader(payload);
    int n = count(in);
    List<PartitionUpdate> out = new ArrayList<>(Math.min(n, 4096));
    for (int i = 0; i < n; i++) {
      out.add(PartitionSerializer.readUpdateBody(in, keyspace, table));
    }
    return new UnfilteredPage(out, in.readByte() != 0);
  }

  /** The applied flag of a commit answer. */
  static byte[] applied(boolean applied) {
    return new byte[] {(byte) VERSION, (byte) (applied ? 1 : 0)};
  }

  static boolean applied(byte[] payload) {
    return FORMAT.reader(payload).readByte() != 0;
  }

  // ------------------------------------------------------------------ parts

  private static int count(DataReader in) {
    int n = in.readVarInt();
    if (n < 0) {
      throw new StorageException("malformed count " + n);
    }
    return n;
  }

  private static void writeIndex(DataWriter out, IndexQuery q) {
    if (q.isNearest()) {
      out.writeByte(1);
      out.writeString(q.annIndex());
      out.writeVarInt(q.vector().length);
      for (float f : q.vector()) {
        out.writeInt(Float.floatToRawIntBits(f));
      }
      out.writeVarInt(q.limit());
      return;
    }
    out.writeByte(0);
    out.writeVarInt(q.expressions().size());
    for (IndexExpression e : q.expressions()) {
      out.writeString(e.index());
      out.writeByte((e.lower() != null ? 1 : 0) | (e.lowerInclusive() ? 2 : 0) | (e.upper() != null ? 4 : 0)
          | (e.upperInclusive() ? 8 : 0));
      if (e.lower() != null) {
        out.writeLengthPrefixed(e.lower());
      }
      if (e.upper() != null) {
        out.writeLengthPrefixed(e.upper());
      }
    }
  }

  private static IndexQuery readIndex(DataReader in) {
    if (in.readByte() == 1) {
      String name = in.readString();
      int n = in.readVarInt();
      if (n < 0 || n > MAX_VECTOR_DIMENSIONS) {
        throw new IllegalArgumentException("vector of " + n + " dimensions (expected: <= " + MAX_VECTOR_DIMENSIONS + ")");
      }
      float[] v = new float[n];
      for (int i = 0; i < n; i++) {
        v[i] = Float.intBitsToFloat(in.readInt());
      }
      return IndexQuery.nearest(name, v, in.readVarInt());
    }
    int n = in.readVarInt();
    List<IndexExpression> expressions = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = in.readString();
      int f = in.readByte();
      byte[] lower = (f & 1) != 0 ? VersionedPayload.bytes(in) : null;
      byte[] upper = (f & 4) != 0 ? VersionedPayload.bytes(in) : null;
      expressions.add(new IndexExpression(name, lower, (f & 2) != 0, upper, (f & 8) != 0));
    }
    return IndexQuery.terms(expressions);
  }

  /** Cassandra's bound on a vector's dimensions (8192 * 2: larger ones are refused at CREATE). */
  static final int MAX_VECTOR_DIMENSIONS = 1 << 14;

  private static void writeQuery(DataWriter out, ReadQuery q) {
    out.writeVarInt(q.slices().size());
    for (Slice s : q.slices()) {
      out.writeByte((s.startInclusive() ? 1 : 0) | (s.endInclusive() ? 2 : 0));
      out.writeLengthPrefixed(s.start());
      out.writeLengthPrefixed(s.end());
    }
    out.writeByte(q.reversed() ? 1 : 0);
    out.writeInt(q.rowLimit());
    out.writeLong(q.nowInSeconds());
  }

  private static ReadQuery readQuery(DataReader in) {
    int n = count(in);
    List<Slice> slices = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      int flags = in.readByte();
      slices.add(new Slice(VersionedPayload.bytes(in), (flags & 1) != 0, VersionedPayload.bytes(in), (flags & 2) != 0));
    }
    boolean reversed = in.readByte() != 0;
    int limit = in.readInt();
    return new ReadQuery(slices, reversed, limit, in.readLong());
  }

  private static void writePartition(DataWriter out, PartitionView v) {
    out.writeLong(v.key().token());
    out.writeLengthPrefixed(v.key().key());
    out.writeByte(v.staticRow() != null ? 1 : 0);
    if (v.staticRow() != null) {
      PartitionSerializer.writeRow(out, v.staticRow());
    }
    out.writeVarInt(v.rows().size());
    for (Row r : v.rows()) {
      PartitionSerializer.writeRow(out, r);
    }
  }

  private static PartitionView readPartition(DataReader in) {
    long token = in.readLong();
    byte[] key = VersionedPayload.bytes(in);
    Row staticRow = in.readByte() != 0 ? PartitionSerializer.readRow(in) : null;
    int n = count(in);
    List<Row> rows = new ArrayList<>(Math.min(n, 4096));
    for (int i = 0; i < n; i++) {
      rows.add(PartitionSerializer.readRow(in));
    }
    return new PartitionView(new DecoratedKey(token, key), staticRow, rows);
  }

  private static void writeUpdates(DataWriter out, List<PartitionUpdate> updates) {
    out.writeVarInt(updates.size());
    for (PartitionUpdate u : updates) {
      out.writeString(u.keyspace());
      out.writeString(u.table());
      PartitionSerializer.writeUpdateBody(out, u);
    }
  }

  private static List<PartitionUpdate> readUpdates(DataReader in) {
    int n = count(in);
    List<PartitionUpdate> out = new ArrayList<>(Math.min(n, 4096));
    for (int i = 0; i < n; i++) {
      String ks = in.readString();
      String table = in.readString();
      out.add(PartitionSerializer.readUpdateBody(in, ks, table));
    }
    return out;
  }
}
