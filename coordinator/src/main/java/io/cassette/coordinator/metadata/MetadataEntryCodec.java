package io.cassette.coordinator.metadata;

import io.cassette.storage.TableSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The bytes of one metadata-log entry (docs/format/metadata-log.md). Do not change the
 * layout: it is on disk, and on the ring it is what the metadata service replicates.
 *
 * <pre>
 *  entry     := format(1) = 1 | epoch(8) | count(4) keyspace* | count(4) string*   (puts, drops)
 *  keyspace  := string name | count(4) (string key, string value)* | count(4) table*
 *               | present(1) [bytes definition]
 *  table     := string keyspace | string name | id(16) | map compression | map compaction
 *               | gcGraceSeconds(4) | bloomFilterFpChance(8, IEEE 754) | defaultTimeToLive(4)
 *  map       := count(4) (string, string)*
 *  string    := length(4) UTF-8 bytes;   bytes := length(4) bytes       (all big-endian)
 * </pre>
 */
public final class MetadataEntryCodec {
  /** The entry format written; a reader refuses any other. */
  public static final int FORMAT = 1;

  private MetadataEntryCodec() {}

  public static byte[] encode(MetadataEntry entry) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeByte(FORMAT);
      out.writeLong(entry.epoch());
      out.writeInt(entry.change().put().size());
      for (KeyspaceDefinition k : entry.change().put()) {
        string(out, k.name());
        map(out, k.replication());
        out.writeInt(k.tables().size());
        for (TableSpec t : k.tables()) {
          string(out, t.keyspace());
          string(out, t.name());
          out.writeLong(t.id().getMostSignificantBits());
          out.writeLong(t.id().getLeastSignificantBits());
          map(out, t.compression());
          map(out, t.compaction());
          out.writeInt(t.gcGraceSeconds());
          out.writeDouble(t.bloomFilterFpChance());
          out.writeInt(t.defaultTimeToLive());
        }
        byte[] def = k.definition();
        out.writeBoolean(def != null);
        if (def != null) {
          out.writeInt(def.length);
          out.write(def);
        }
      }
      out.writeInt(entry.change().drop().size());
      for (String d : entry.change().drop()) {
        string(out, d);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Decodes an entry; {@code where} names it in errors (e.g. the epoch's row). */
  public static MetadataEntry decode(byte[] data, String where) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      int format = in.readUnsignedByte();
      if (format != FORMAT) {
        throw new IllegalStateException("metadata log entry " + where + " has format " + format
            + "; this release reads format " + FORMAT + " only");
      }
      long epoch = in.readLong();
      int puts = in.readInt();
      List<KeyspaceDefinition> put = new ArrayList<>(puts);
      for (int i = 0; i < puts; i++) {
        String name = string(in);
        Map<String, String> replication = map(in);
        int n = in.readInt();
        List<TableSpec> tables = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
          String ks = string(in);
          String tn = string(in);
          UUID id = new UUID(in.readLong(), in.readLong());
          Map<String, String> compression = map(in);
          Map<String, String> compaction = map(in);
          tables.add(new TableSpec(ks, tn, id, compression, compaction, in.readInt(), in.readDouble(),
              in.readInt()));
        }
        byte[] def = null;
        if (in.readBoolean()) {
          def = new byte[in.readInt()];
          in.readFully(def);
        }
        put.add(new KeyspaceDefinition(name, replication, tables, def));
      }
      int drops = in.readInt();
      List<String> drop = new ArrayList<>(drops);
      for (int i = 0; i < drops; i++) {
        drop.add(string(in));
      }
      if (in.available() != 0) {
        throw new IllegalStateException("metadata log entry " + where + " has " + in.available()
            + " bytes after its end");
      }
      return new MetadataEntry(epoch, new MetadataChange(put, drop));
    } catch (IOException e) {
      throw new IllegalStateException("metadata log entry " + where + " is truncated (" + data.length
          + " bytes)", e);
    }
  }

  private static void string(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String string(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static void map(DataOutputStream out, Map<String, String> m) throws IOException {
    out.writeInt(m.size());
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(m).entrySet()) {
      string(out, e.getKey());
      string(out, e.getValue());
    }
  }

  private static Map<String, String> map(DataInputStream in) throws IOException {
    int n = in.readInt();
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(string(in), string(in));
    }
    return m;
  }
}
