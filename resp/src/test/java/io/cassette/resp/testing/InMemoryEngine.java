package io.cassette.resp.testing;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.Engine;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import io.cassette.storage.TableSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A minimal in-memory {@link Engine} for front-door tests while (or where) the real engine is
 * not available: writes are applied to a materialized view at once (our front door writes
 * with increasing timestamps, so last-applied is last-written). Synchronized; no durability.
 */
public final class InMemoryEngine implements Engine {
  private final Map<String, MemTable> tables = new ConcurrentHashMap<>();

  @Override
  public synchronized Table createTable(TableSpec spec) {
    return tables.computeIfAbsent(spec.keyspace() + "." + spec.name(), k -> new MemTable(spec));
  }

  @Override
  public Table alterTable(TableSpec spec) {
    return createTable(spec);
  }

  @Override
  public Optional<Table> table(String keyspace, String name) {
    return Optional.ofNullable(tables.get(keyspace + "." + name));
  }

  @Override
  public Collection<Table> tables() {
    return List.copyOf(tables.values());
  }

  @Override
  public void dropTable(String keyspace, String name) {
    tables.remove(keyspace + "." + name);
  }

  @Override
  public synchronized void apply(Mutation mutation) {
    for (PartitionUpdate u : mutation.updates()) {
      tables.get(u.keyspace() + "." + u.table()).applyNow(u);
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  private final class MemTable implements Table {
    private final TableSpec spec;
    private final TreeMap<DecoratedKey, TreeMap<byte[], Row>> data = new TreeMap<>();

    MemTable(TableSpec spec) {
      this.spec = spec;
    }

    @Override
    public TableSpec spec() {
      return spec;
    }

    @Override
    public void apply(PartitionUpdate update) {
      InMemoryEngine.this.apply(Mutation.of(update));
    }

    void applyNow(PartitionUpdate u) {
      synchronized (InMemoryEngine.this) {
        DecoratedKey dk = DecoratedKey.of(u.key());
        TreeMap<byte[], Row> rows = data.computeIfAbsent(dk, k -> new TreeMap<>(Bytes::compare));
        if (!u.partitionDeletion().isLive()) {
          rows.clear();
        }
        for (RangeTombstone rt : u.rangeTombstones()) {
          rows.keySet().removeIf(c -> rt.slice().includes(c));
        }
        for (Row r : u.rows()) {
          if (!r.deletion().isLive()) {
            rows.remove(r.clustering());
            continue;
          }
          Row old = rows.get(r.clustering());
          List<Cell> cells = new ArrayList<>();
          if (old != null) {
            for (Cell c : old.cells()) {
              if (r.cell(c.column()) == null) {
                cells.add(c);
              }
            }
          }
          cells.addAll(r.cells());
          rows.put(r.clustering(), Row.of(r.clustering(), cells));
        }
        if (rows.isEmpty()) {
          data.remove(dk);
        }
      }
    }

    @Override
    public PartitionView read(byte[] partitionKey, ReadQuery query) {
      synchronized (InMemoryEngine.this) {
        DecoratedKey dk = DecoratedKey.of(partitionKey);
        return view(dk, data.get(dk), query);
      }
    }

    private PartitionView view(DecoratedKey dk, TreeMap<byte[], Row> rows, ReadQuery q) {
      List<Row> out = new ArrayList<>();
      if (rows != null) {
        NavigableMap<byte[], Row> m = q.reversed() ? rows.descendingMap() : rows;
        for (Row r : m.values()) {
          if (out.size() >= q.rowLimit()) {
            break;
          }
          for (Slice s : q.slices()) {
            if (s.includes(r.clustering())) {
              out.add(r);
              break;
            }
          }
        }
      }
      return new PartitionView(dk, null, out);
    }

    @Override
    public CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
      List<PartitionView> out = new ArrayList<>();
      synchronized (InMemoryEngine.this) {
        for (Map.Entry<DecoratedKey, TreeMap<byte[], Row>> e : data.entrySet()) {
          DecoratedKey k = e.getKey();
          if (range.after() != null) {
            int c = range.after().key() == null ? Long.compare(k.token(), range.after().token())
                : k.compareTo(range.after());
            if (c <= 0) {
              continue;
            }
          }
          if (k.token() > range.endToken()) {
            break;
          }
          PartitionView v = view(k, e.getValue(), query);
          if (!v.isEmpty()) {
            out.add(v);
          }
        }
      }
      Iterator<PartitionView> it = out.iterator();
      return new CloseableIterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public PartitionView next() {
          return it.next();
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public void flush() {}

    @Override
    public void compact() {}

    @Override
    public void truncate() {
      synchronized (InMemoryEngine.this) {
        data.clear();
      }
    }

    @Override
    public void snapshot(String tag) {}

    @Override
    public TableMetrics metrics() {
      return null;
    }
  }
}
