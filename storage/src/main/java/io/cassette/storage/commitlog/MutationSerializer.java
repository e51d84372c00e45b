package io.cassette.storage.commitlog;

import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
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
      PartitionSerializer.writeUpdateBody(out, u, true); // version 2: cells share the row's timestamp
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
      TableRef ref = tables.apply(id);
      // An unresolved table's update is still read, to reach the next one.
      PartitionUpdate u = PartitionSerializer.readUpdateBody(in,
          ref == null ? "" : ref.keyspace(), ref == null ? "" : ref.name());
      if (ref != null) {
        out.add(new TableUpdate(id, u));
      }
    }
    return out;
  }
}
