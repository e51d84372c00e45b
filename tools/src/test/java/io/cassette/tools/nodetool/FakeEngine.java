package io.cassette.tools.nodetool;

import io.cassette.storage.Engine;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import io.cassette.storage.TableSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for the storage engine until it is built: tables that count flushes and
 * compactions and lay out SSTable and snapshot files as the engine documents
 * ({@code <data>/<ks>/<table>-<id hex>/snapshots/<tag>/}). Reads and writes are not supported.
 */
final class FakeEngine implements Engine {
  private final Path dataDirectory;
  private final Map<String, FakeTable> tables = new ConcurrentHashMap<>();

  FakeEngine(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  @Override
  public Table createTable(TableSpec spec) {
    return tables.computeIfAbsent(spec.keyspace() + "." + spec.name(), k -> new FakeTable(spec));
  }

  @Override
  public Table alterTable(TableSpec spec) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Optional<Table> table(String keyspace, String name) {
    return Optional.ofNullable(tables.get(keyspace + "." + name));
  }

  @Override
  public Collection<Table> tables() {
    return new ArrayList<>(tables.values());
  }

  @Override
  public void dropTable(String keyspace, String name) {
    tables.remove(keyspace + "." + name);
  }

  @Override
  public void apply(Mutation mutation) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void flush() {
    tables.values().forEach(FakeTable::flush);
  }

  @Override
  public void close() {}

  final class FakeTable implements Table {
    private final TableSpec spec;
    private final Path dir;
    volatile int sstables;
    volatile int compactions;
    volatile long writes;

    FakeTable(TableSpec spec) {
      this.spec = spec;
      this.dir = dataDirectory.resolve(spec.keyspace())
          .resolve(spec.name() + "-" + spec.id().toString().replace("-", ""));
    }

    @Override
    public TableSpec spec() {
      return spec;
    }

    @Override
    public void apply(PartitionUpdate update) {
      throw new UnsupportedOperationException();
    }

    @Override
    public PartitionView read(byte[] partitionKey, ReadQuery query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public synchronized void flush() {
      sstables++;
      write(dir.resolve("nb-" + sstables + "-big-Data.db"), 1000);
    }

    @Override
    public synchronized void compact() {
      compactions++;
    }

    @Override
    public void truncate() {}

    @Override
    public synchronized void snapshot(String tag) {
      try (var files = Files.list(Files.createDirectories(dir))) {
        Path target = Files.createDirectories(dir.resolve("snapshots").resolve(tag));
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Files.createLink(target.resolve(f.getFileName()), f);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public TableMetrics metrics() {
      return new TableMetrics(10, writes, 1500, 300, sstables, sstables * 1000L, 4096, 2048,
          0, 0);
    }

    private void write(Path file, int bytes) {
      try {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[bytes]);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  static List<String> names(Collection<Table> tables) {
    return tables.stream().map(t -> t.spec().keyspace() + "." + t.spec().name()).sorted().toList();
  }
}
