package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.Checksums;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.io.FileSync;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The persisted list of tables, read before the commit log is replayed. Rewritten whole on
 * every change: temporary file, fsync, rename, directory fsync. Do not change the layout:
 * it is on disk (docs/format/catalog.md).
 *
 * <pre>
 * catalog.db := magic:u32 "CCAT" | layoutVersion:u16 | count:varint | table* | crc32c(all before):u32
 * table      := keyspace:string name:string id:uuid(i64 i64) compression:map compaction:map
 *               gcGraceSeconds:varint bloomFilterFpChance:f64(bits i64) defaultTimeToLive:varint
 *               truncatedAt(segmentId:i64 offset:i64)
 * map        := count:varint (key:string value:string)*
 * </pre>
 */
final class Catalog {
  static final String FILE_NAME = "catalog.db";
  static final int MAGIC = 0x43434154; // "CCAT"
  /** Version of the data directory layout; a newer one is refused, never guessed at. */
  static final int LAYOUT_VERSION = 1;

  /** One table as persisted: its spec and the commit-log position of its last truncation. */
  record Entry(TableSpec spec, CommitLogPosition truncatedAt) {}

  private Catalog() {}

  static List<Entry> load(Path dataDirectory) {
    Path file = dataDirectory.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return List.of();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new StorageException("cannot read catalog " + file + ": " + e, e);
    }
    if (bytes.length < 10) {
      throw new StorageException("corrupt catalog " + file + ": truncated to " + bytes.length + " bytes");
    }
    int stored = java.nio.ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
    if (stored != Checksums.crc32c(bytes, 0, bytes.length - 4)) {
      throw new StorageException("corrupt catalog " + file + " at offset " + (bytes.length - 4)
          + ": checksum failed (truncated or damaged file)");
    }
    DataReader in = new ByteArrayReader(bytes, 0, bytes.length - 4);
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new StorageException("corrupt catalog " + file + " at offset 0: magic " + Integer.toHexString(magic));
    }
    int version = in.readByte() << 8 | in.readByte();
    if (version > LAYOUT_VERSION) {
      throw new StorageException("data directory " + dataDirectory + " has layout version " + version
          + " (expected: <= " + LAYOUT_VERSION + "); it was written by a newer Cassette");
    }
    int count = in.readVarInt();
    List<Entry> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String ks = in.readString();
      String name = in.readString();
      UUID id = new UUID(in.readLong(), in.readLong());
      Map<String, String> compression = readMap(in);
      Map<String, String> compaction = readMap(in);
      int gcGrace = in.readVarInt();
      double fp = Double.longBitsToDouble(in.readLong());
      int ttl = in.readVarInt();
      CommitLogPosition truncatedAt = new CommitLogPosition(in.readLong(), in.readLong());
      entries.add(new Entry(new TableSpec(ks, name, id, compression, compaction, gcGrace, fp, ttl), truncatedAt));
    }
    return entries;
  }

  private static Map<String, String> readMap(DataReader in) {
    int n = in.readVarInt();
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(in.readString(), in.readString());
    }
    return m;
  }

  static void save(Path dataDirectory, List<Entry> entries) {
    ByteArrayWriter out = new ByteArrayWriter(1024);
    out.writeInt(MAGIC);
    out.writeByte(LAYOUT_VERSION >>> 8);
    out.writeByte(LAYOUT_VERSION);
    out.writeVarInt(entries.size());
    for (Entry e : entries) {
      TableSpec s = e.spec();
      out.writeString(s.keyspace());
      out.writeString(s.name());
      out.writeLong(s.id().getMostSignificantBits());
      out.writeLong(s.id().getLeastSignificantBits());
      writeMap(out, s.compression());
      writeMap(out, s.compaction());
      out.writeVarInt(s.gcGraceSeconds());
      out.writeLong(Double.doubleToLongBits(s.bloomFilterFpChance()));
      out.writeVarInt(s.defaultTimeToLive());
      out.writeLong(e.truncatedAt().segmentId());
      out.writeLong(e.truncatedAt().offset());
    }
    out.writeInt(Checksums.crc32c(out.buffer(), 0, out.length()));
    FileSync.writeAtomically(dataDirectory.resolve(FILE_NAME), out.toByteArray());
  }

  private static void writeMap(ByteArrayWriter out, Map<String, String> m) {
    out.writeVarInt(m.size());
    for (var e : new java.util.TreeMap<>(m).entrySet()) {
      out.writeString(e.getKey());
      out.writeString(e.getValue());
    }
  }
}
