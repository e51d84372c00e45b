package io.cassette.storage.commitlog;

import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.io.DataWriter;
import io.cassette.storage.partition.PartitionSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * A mutation as a commit-log payload. Tables are named by id so that renames and drops are
 * resolved through the catalog at replay.
 *
 * <pre>
 * mutation := updateCount:varint update*
 * update   := tableId:uuid(msb:i64 lsb:i64) key:bytes flags:u8 (1 deletion, 2 range tombstones)
 *             [partitionDeletion if flags&amp;1] [rtCount:varint rangeTomb* if flags&amp;2]
 *             rowCount:varint row*                                 (see PartitionSerializer)
 * </pre>
 */
public final class MutationSerializer {
  private MutationSerializer() {}

  /** A resolved target of an update at replay: the table's names, or null when dropped. */
  public record TableRef(String keyspace, String name) {}

  /** Requires: {@code tableIds.get(i)} is the table of {@code m.updates().get(i)}. */
  public static void write(DataWriter out, Mutation m, List<UUID> tableIds) {
    out.writeVarInt(m.updates().size());
    for (int i = 0; i < m.updates().size(); i++) {
      PartitionUpdate u = m.updates().get(i);
      UUID id = tableIds.get(i);
      out.writeLong(id.getMostSignificantBits());
      out.writeLong(id.getLeastSignificantBits());
      out.writeLengthPrefixed(u.key());
      boolean deleted = !u.partitionDeletion().isLive();
      boolean ranges = !u.rangeTombstones().isEmpty();
      out.writeByte((deleted ? 1 : 0) | (ranges ? 2 : 0));
      if (deleted) {
        PartitionSerializer.writeDeletion(out, u.partitionDeletion());
      }
      if (ranges) {
        out.writeVarInt(u.rangeTombstones().size());
        for (RangeTombstone rt : u.rangeTombstones()) {
          PartitionSerializer.writeRangeTombstone(out, rt);
        }
      }
      out.writeVarInt(u.rows().size());
      for (Row r : u.rows()) {
        PartitionSerializer.writeRow(out, r);
      }
    }
  }

  /** One decoded update with the id of its table. */
  public record TableUpdate(UUID tableId, PartitionUpdate update) {}

  /** Reads a mutation; updates of tables that {@code tables} cannot resolve are skipped. */
  public static List<TableUpdate> read(DataReader in, Function<UUID, TableRef> tables) {
    int count = in.readVarInt();
    List<TableUpdate> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      UUID id = new UUID(in.readLong(), in.readLong());
      byte[] key = in.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
      int flags = in.readByte();
      var pd = (flags & 1) != 0 ? PartitionSerializer.readDeletion(in) : io.cassette.storage.DeletionTime.LIVE;
      int rtCount = (flags & 2) != 0 ? in.readVarInt() : 0;
      List<RangeTombstone> rts = new ArrayList<>(rtCount);
      for (int j = 0; j < rtCount; j++) {
        rts.add(PartitionSerializer.readRangeTombstone(in));
      }
      int rowCount = in.readVarInt();
      List<Row> rows = new ArrayList<>(Math.min(rowCount, 4096));
      for (int j = 0; j < rowCount; j++) {
        rows.add(PartitionSerializer.readRow(in));
      }
      TableRef ref = tables.apply(id);
      if (ref != null) {
        out.add(new TableUpdate(id, new PartitionUpdate(ref.keyspace(), ref.name(), key, pd, rts, rows)));
      }
    }
    return out;
  }
}
