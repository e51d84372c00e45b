package io.cassette.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything one write does to one partition of one table: an optional partition deletion,
 * range tombstones, and rows (each row's cells, liveness and deletion). Applied atomically.
 */
public record PartitionUpdate(String keyspace, String table, byte[] key,
                              DeletionTime partitionDeletion, List<RangeTombstone> rangeTombstones,
                              List<Row> rows) {

  public PartitionUpdate {
    rangeTombstones = List.copyOf(rangeTombstones);
    rows = List.copyOf(rows);
  }

  public static Builder builder(String keyspace, String table, byte[] key) {
    return new Builder(keyspace, table, key);
  }

  /** Collects the parts of one partition's update; not thread-safe. */
  public static final class Builder {
    private final String keyspace;
    private final String table;
    private final byte[] key;
    private DeletionTime partitionDeletion = DeletionTime.LIVE;
    private final List<RangeTombstone> rangeTombstones = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();

    private Builder(String keyspace, String table, byte[] key) {
      this.keyspace = keyspace;
      this.table = table;
      this.key = key;
    }

    public Builder deletePartition(DeletionTime deletion) {
      partitionDeletion = deletion.supersedes(partitionDeletion);
      return this;
    }

    public Builder deleteRange(Slice slice, DeletionTime deletion) {
      rangeTombstones.add(new RangeTombstone(slice, deletion));
      return this;
    }

    public Builder row(Row row) {
      rows.add(row);
      return this;
    }

    public PartitionUpdate build() {
      return new PartitionUpdate(keyspace, table, key, partitionDeletion, rangeTombstones, rows);
    }
  }
}
