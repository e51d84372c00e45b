package io.cassette.bench;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.CommitLogSync;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Cassette's engine in periodic commit-log mode (10 s), memtables sized from the heap. */
final class CassetteStore implements KeyValueStore {
  private final Engine engine;
  private final Table table;
  private long timestamp;

  CassetteStore(Path dir) {
    EngineOptions d = EngineOptions.defaults(dir);
    long budget = Math.max(8L << 20, Runtime.getRuntime().maxMemory() / 4);
    engine = Engine.open(new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), CommitLogSync.PERIODIC,
        Duration.ofSeconds(10), d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), budget,
        d.compactionThroughputBytesPerSecond(), 1));
    table = engine.createTable(TableSpec.withDefaults("bench", "kv", UUID.nameUUIDFromBytes("bench".getBytes())));
  }

  @Override
  public String name() {
    return "cassette";
  }

  @Override
  public void put(byte[] partition, byte[] clustering, byte[] value) {
    long ts = ++timestamp;
    table.apply(PartitionUpdate.builder("bench", "kv", partition)
        .row(Row.of(clustering, List.of(Cell.live("v", value, ts)))).build());
  }

  @Override
  public boolean get(byte[] partition, byte[] clustering) {
    var v = table.read(partition, ReadQuery.row(clustering, 0));
    return clustering.length == 0 ? v.staticRow() != null : !v.rows().isEmpty();
  }

  @Override
  public int slice(byte[] partition, byte[] start, int limit) {
    var q = new ReadQuery(List.of(new Slice(start, true, Bytes.EMPTY, true)), false, limit, 0);
    return table.read(partition, q).rows().size();
  }

  @Override
  public void flush() {
    engine.flush();
  }

  @Override
  public void close() {
    if (Boolean.getBoolean("bench.verbose")) {
      System.out.println(engine.metrics());
    }
    engine.close();
  }
}
