package io.cassette.coordinator.metadata;

import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * The metadata log of a single node: entries are rows of the node-local storage table
 * {@code system_cassette.metadata_log} (one partition, clustered by epoch; format in
 * docs/format/metadata-log.md), so they are durable through the commit log and their epochs
 * survive a restart.
 *
 * <p>A commit first lets the {@code applier} make storage match the new snapshot (create,
 * alter, drop tables); if storage refuses, nothing is appended. Then the entry is written,
 * the snapshot published, and listeners told. At open the entries are folded in epoch order
 * and the applier is given the final snapshot once ({@code before} = {@link
 * ClusterMetadata#EMPTY}) to heal storage that a crash left behind the log.
 */
public final class LocalMetadataLog implements MetadataLog {
  public static final String KEYSPACE = "system_cassette";
  public static final String TABLE = "metadata_log";
  static final String ENTRY_COLUMN = "entry";
  /** Stable, so a restart finds the same table. Do not change: it is on disk. */
  private static final UUID TABLE_ID = UUID.fromString("5c4e3a00-0000-1000-8000-00000000ca56");
  private static final byte[] PARTITION = "log".getBytes(StandardCharsets.UTF_8);

  private final Table store;
  private final BiConsumer<ClusterMetadata, ClusterMetadata> applier;
  private final List<BiConsumer<MetadataEntry, ClusterMetadata>> listeners = new CopyOnWriteArrayList<>();
  private volatile ClusterMetadata current;

  /**
   * Opens the log on {@code engine}, replays it, and hands the result to {@code applier}.
   *
   * @param applier makes storage match {@code (before, after)}; throws to refuse a change
   */
  public static LocalMetadataLog open(Engine engine, BiConsumer<ClusterMetadata, ClusterMetadata> applier) {
    Table store = engine.createTable(TableSpec.withDefaults(KEYSPACE, TABLE, TABLE_ID));
    ClusterMetadata m = ClusterMetadata.EMPTY;
    long now = System.currentTimeMillis() / 1000;
    PartitionView log = store.read(PARTITION, ReadQuery.all(now));
    for (Row row : log.rows()) {
      Cell c = row.cell(ENTRY_COLUMN);
      long epoch = epochOf(row.clustering());
      MetadataEntry e = MetadataEntryCodec.decode(c.value(), "epoch " + epoch);
      if (e.epoch() != epoch || epoch != m.epoch() + 1) {
        throw new IllegalStateException("metadata log " + KEYSPACE + "." + TABLE + " is not contiguous: entry "
            + e.epoch() + " stored at epoch " + epoch + " after epoch " + m.epoch());
      }
      m = m.apply(e);
    }
    applier.accept(ClusterMetadata.EMPTY, m);
    return new LocalMetadataLog(store, applier, m);
  }

  private LocalMetadataLog(Table store, BiConsumer<ClusterMetadata, ClusterMetadata> applier,
                           ClusterMetadata current) {
    this.store = store;
    this.applier = applier;
    this.current = current;
  }

  @Override
  public ClusterMetadata current() {
    return current;
  }

  @Override
  public synchronized ClusterMetadata commit(MetadataChange change) {
    ClusterMetadata before = current;
    MetadataEntry entry = new MetadataEntry(before.epoch() + 1, change);
    ClusterMetadata after = before.apply(entry);
    applier.accept(before, after);
    long micros = System.currentTimeMillis() * 1000;
    store.apply(PartitionUpdate.builder(KEYSPACE, TABLE, PARTITION)
        .row(Row.of(epochClustering(entry.epoch()),
            List.of(Cell.live(ENTRY_COLUMN, MetadataEntryCodec.encode(entry), micros))))
        .build());
    current = after;
    for (BiConsumer<MetadataEntry, ClusterMetadata> l : listeners) {
      l.accept(entry, after);
    }
    return after;
  }

  @Override
  public void listen(BiConsumer<MetadataEntry, ClusterMetadata> listener) {
    listeners.add(listener);
  }

  /** Epochs are positive, so big-endian bytes sort as the numbers do. */
  static byte[] epochClustering(long epoch) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (epoch >>> (56 - 8 * i));
    }
    return b;
  }

  static long epochOf(byte[] clustering) {
    long v = 0;
    for (byte x : clustering) {
      v = (v << 8) | (x & 0xFF);
    }
    return v;
  }

}
