package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random writes, deletions, TTLs, range tombstones, reads, scans, flushes, compactions,
 * clean restarts and crashes against a deliberately simple in-memory model. Timestamps are
 * distinct, so the model needs no tie rules: the highest timestamp wins.
 */
class ModelBasedTest {
  @TempDir
  Path dir;

  static final int KEYS = 6;
  static final int STEPS = Integer.getInteger("model.steps", 2000);
  static final int CLUSTERINGS = 12;
  static final String[] COLUMNS = {"a", "b"};

  /** The model of one partition: every write ever made, evaluated at read time. */
  static final class PartitionModel {
    long partitionDeletion = Long.MIN_VALUE;
    final List<RangeTombstone> rangeTombstones = new ArrayList<>();
    final TreeMap<String, RowModel> rows = new TreeMap<>();
  }

  static final class RowModel {
    LivenessInfo liveness = LivenessInfo.EMPTY;
    long deletion = Long.MIN_VALUE;
    final Map<String, Cell> cells = new TreeMap<>();
  }

  final Map<Integer, PartitionModel> model = new TreeMap<>();
  final Random random;
  final Set<Long> usedTimestamps = new HashSet<>();
  final long now = System.currentTimeMillis() / 1000;
  final List<String> trace = new ArrayList<>();

  ModelBasedTest() {
    random = new Random(Long.getLong("model.seed", System.nanoTime()));
  }

  static byte[] pk(int i) {
    return new byte[] {'k', (byte) i};
  }

  /** Clusterings of one or two bytes so that prefixes occur. */
  static byte[] ck(int i) {
    return i < 8 ? new byte[] {(byte) (i * 2 + 1)} : new byte[] {(byte) ((i - 8) * 4 + 1), (byte) (i % 3)};
  }

  static String hex(byte[] b) {
    return Bytes.hex(b);
  }

  /**
   * With gc_grace 0 tombstones are purged and a write arriving later with an older
   * timestamp would legitimately resurface (as in Cassandra), so timestamps then only grow.
   */
  boolean increasingTimestamps;
  long lastTimestamp;

  long timestamp() {
    if (increasingTimestamps) {
      lastTimestamp += 1 + random.nextInt(10);
      return lastTimestamp;
    }
    while (true) {
      long ts = 1 + random.nextInt(1_000_000);
      if (usedTimestamps.add(ts)) {
        return ts;
      }
    }
  }

  Cell randomCell(String col, long ts) {
    int kind = random.nextInt(10);
    if (kind < 6) {
      return Cell.live(col, new byte[] {(byte) random.nextInt(256)}, ts);
    } else if (kind < 8) {
      // already expired, or expiring far in the future
      boolean expired = random.nextBoolean();
      return Cell.expiring(col, new byte[] {(byte) random.nextInt(256)}, ts, 100, expired ? now - 200 : now + 10_000);
    }
    return Cell.tombstone(col, ts, now - random.nextInt(20));
  }

  PartitionUpdate randomUpdate(int key) {
    PartitionUpdate.Builder b = PartitionUpdate.builder("ks", "t", pk(key));
    PartitionModel p = model.computeIfAbsent(key, k -> new PartitionModel());
    int kind = random.nextInt(100);
    if (kind < 65) {
      int c = random.nextInt(CLUSTERINGS + 1) - 1; // -1: static row
      byte[] clustering = c < 0 ? Bytes.EMPTY : ck(c);
      long ts = timestamp();
      LivenessInfo li = LivenessInfo.EMPTY;
      if (c >= 0 && random.nextInt(3) == 0) {
        li = random.nextInt(4) == 0 ? LivenessInfo.expiring(ts, 100, random.nextBoolean() ? now - 200 : now + 10_000)
            : LivenessInfo.of(ts);
      }
      List<Cell> cells = new ArrayList<>();
      for (String col : COLUMNS) {
        if (random.nextInt(3) > 0) {
          cells.add(randomCell(col, random.nextInt(4) == 0 ? timestamp() : ts));
        }
      }
      DeletionTime del = DeletionTime.LIVE;
      if (c >= 0 && random.nextInt(10) == 0) {
        del = new DeletionTime(timestamp(), now - random.nextInt(20));
      }
      Row row = new Row(clustering, li, del, cells);
      b.row(row);
      RowModel rm = p.rows.computeIfAbsent(hex(clustering), k -> new RowModel());
      if (li.timestamp() > rm.liveness.timestamp()) {
        rm.liveness = li;
      }
      rm.deletion = Math.max(rm.deletion, del.markedForDeleteAt());
      for (Cell cell : cells) {
        Cell old = rm.cells.get(cell.column());
        if (old == null || cell.timestamp() > old.timestamp()) {
          rm.cells.put(cell.column(), cell);
        }
      }
    } else if (kind < 90) {
      int x = random.nextInt(CLUSTERINGS);
      int y = random.nextInt(CLUSTERINGS);
      byte[] s = ck(Math.min(x, y));
      byte[] e = ck(Math.max(x, y));
      if (random.nextInt(4) == 0) {
        s = new byte[] {s[0]}; // a prefix bound
      }
      Slice slice = new Slice(random.nextInt(5) == 0 ? Bytes.EMPTY : s, random.nextBoolean(),
          random.nextInt(5) == 0 ? Bytes.EMPTY : e, random.nextBoolean());
      RangeTombstone rt = new RangeTombstone(slice, new DeletionTime(timestamp(), now - random.nextInt(20)));
      b.deleteRange(rt.slice(), rt.deletion());
      p.rangeTombstones.add(rt);
    } else {
      long ts = timestamp();
      b.deletePartition(new DeletionTime(ts, now - random.nextInt(20)));
      p.partitionDeletion = Math.max(p.partitionDeletion, ts);
    }
    return b.build();
  }

  /** The model's answer, rendered like {@link #render(PartitionView)}. */
  String expected(int key, ReadQuery q) {
    PartitionModel p = model.get(key);
    if (p == null) {
      return "static=null rows=[]";
    }
    String staticRow = null;
    List<String> rows = new ArrayList<>();
    for (var e : p.rows.entrySet()) {
      RowModel rm = e.getValue();
      byte[] clustering = clusteringOf(e.getKey());
      long d = Math.max(p.partitionDeletion, rm.deletion);
      if (clustering.length > 0) {
        for (RangeTombstone rt : p.rangeTombstones) {
          if (rt.slice().includes(clustering)) {
            d = Math.max(d, rt.deletion().markedForDeleteAt());
          }
        }
      }
      boolean live = !rm.liveness.isEmpty() && rm.liveness.timestamp() > d && rm.liveness.isLive(q.nowInSeconds());
      StringBuilder sb = new StringBuilder(e.getKey()).append(live ? "+" + rm.liveness.timestamp() : "");
      boolean any = live;
      for (Cell c : rm.cells.values()) {
        if (c.timestamp() > d && c.isLive(q.nowInSeconds())) {
          sb.append(' ').append(c.column()).append('=').append(hex(c.value())).append('@').append(c.timestamp());
          any = true;
        }
      }
      if (!any) {
        continue;
      }
      if (clustering.length == 0) {
        staticRow = sb.toString();
        continue;
      }
      boolean selected = false;
      for (Slice s : q.slices()) {
        selected |= s.includes(clustering);
      }
      if (selected) {
        rows.add(sb.toString());
      }
    }
    if (q.reversed()) {
      java.util.Collections.reverse(rows);
    }
    if (rows.size() > q.rowLimit()) {
      rows = rows.subList(0, q.rowLimit());
    }
    return "static=" + staticRow + " rows=" + rows;
  }

  static byte[] clusteringOf(String hex) {
    byte[] out = new byte[(hex.length() - 2) / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 + 2 * i, 4 + 2 * i), 16);
    }
    return out;
  }

  static String renderRow(Row r) {
    StringBuilder sb = new StringBuilder(hex(r.clustering()));
    if (!r.liveness().isEmpty()) {
      sb.append('+').append(r.liveness().timestamp());
    }
    for (Cell c : r.cells()) {
      sb.append(' ').append(c.column()).append('=').append(hex(c.value())).append('@').append(c.timestamp());
    }
    return sb.toString();
  }

  static String render(PartitionView v) {
    List<String> rows = new ArrayList<>();
    for (Row r : v.rows()) {
      rows.add(renderRow(r));
    }
    return "static=" + (v.staticRow() == null ? null : renderRow(v.staticRow())) + " rows=" + rows;
  }

  static String describe(List<RangeTombstone> rts) {
    List<String> out = new ArrayList<>();
    for (RangeTombstone rt : rts) {
      Slice s = rt.slice();
      out.add((s.startInclusive() ? "[" : "(") + hex(s.start()) + "," + hex(s.end()) + (s.endInclusive() ? "]" : ")")
          + "@" + rt.deletion().markedForDeleteAt());
    }
    return out.toString();
  }

  static String describeQuery(ReadQuery q) {
    List<RangeTombstone> fake = new ArrayList<>();
    for (Slice s : q.slices()) {
      fake.add(new RangeTombstone(s, DeletionTime.LIVE));
    }
    return describe(fake) + (q.reversed() ? " reversed" : "") + " limit " + q.rowLimit();
  }

  ReadQuery randomQuery() {
    List<Slice> slices = new ArrayList<>();
    int kind = random.nextInt(4);
    if (kind == 0) {
      slices.add(Slice.ALL);
    } else if (kind == 1) {
      slices.add(Slice.prefix(ck(random.nextInt(CLUSTERINGS))));
    } else {
      int x = random.nextInt(CLUSTERINGS);
      int y = random.nextInt(CLUSTERINGS);
      byte[] s = ck(Math.min(x, y));
      byte[] e = ck(Math.max(x, y));
      if (random.nextBoolean()) {
        e = new byte[] {e[0]};
      }
      slices.add(new Slice(s, random.nextBoolean(), e, random.nextBoolean()));
      if (kind == 3) {
        byte[] tail = ck(Math.max(x, y) + 1 >= 8 ? 11 : Math.max(x, y) + 1);
        if (Bytes.compare(tail, e) > 0 && !Bytes.startsWith(tail, e)) {
          slices.add(new Slice(tail, true, Bytes.EMPTY, true));
        }
      }
    }
    int limit = random.nextInt(3) == 0 ? 1 + random.nextInt(4) : Integer.MAX_VALUE;
    return new ReadQuery(slices, random.nextInt(3) == 0, limit, now);
  }

  EngineOptions options(boolean batch) {
    EngineOptions d = EngineOptions.defaults(dir);
    // a tiny budget and segments so flushes and segment rolls happen by themselves
    return new EngineOptions(d.dataDirectory(), d.commitLogDirectory(),
        batch ? CommitLogSync.BATCH : CommitLogSync.PERIODIC, Duration.ofMillis(50), 64 * 1024, 1 << 20,
        256 * 1024, 0, 1);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 864000})
  void engineAgreesWithModel(int gcGrace) {
    long seed = Long.getLong("model.seed", System.nanoTime());
    random.setSeed(seed);
    boolean batch = false; // batch mode is exercised by CrashTest; here it would only add fsyncs
    increasingTimestamps = gcGrace == 0;
    Map<String, String> compression = gcGrace == 0 ? Map.of("class", "SnappyCompressor", "chunk_length_in_kb", "4")
        : Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4");
    TableSpec spec = new TableSpec("ks", "t", UUID.randomUUID(), compression,
        gcGrace == 0
            // purging on: also rewrite single SSTables for their tombstones as soon as possible
            ? Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "2", "tombstone_compaction_interval", "0")
            : Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "2"), gcGrace, 0.01, 0);
    Engine engine = Engine.open(options(batch));
    Table table = engine.createTable(spec);
    try {
      for (int step = 0; step < STEPS; step++) {
        int op = random.nextInt(1000);
        if (op < 700) {
          int key = random.nextInt(KEYS);
          PartitionUpdate u = randomUpdate(key);
          trace.add(step + " apply " + key + " pd=" + u.partitionDeletion() + " rts=" + describe(u.rangeTombstones())
              + " rows=" + u.rows().stream().map(r -> hex(r.clustering()) + " li=" + r.liveness() + " del=" + r.deletion().markedForDeleteAt()
              + " cells=" + r.cells()).toList());
          engine.apply(Mutation.of(u));
        } else if (op < 940) {
          int key = random.nextInt(KEYS);
          ReadQuery q = randomQuery();
          String got = render(table.read(pk(key), q));
          assertThat(got).as("seed %d step %d key %d query %s\n%s", seed, step, key, describeQuery(q), String.join("\n", trace)).isEqualTo(expected(key, q));
        } else if (op < 955) {
          List<String> got = new ArrayList<>();
          List<String> want = new ArrayList<>();
          ReadQuery q = ReadQuery.all(now);
          try (Table.CloseableIterator<PartitionView> it = table.scan(KeyRange.ALL, q)) {
            it.forEachRemaining(v -> got.add(hex(v.key().key()) + ":" + render(v)));
          }
          List<DecoratedKey> keys = new ArrayList<>();
          for (int k : model.keySet()) {
            keys.add(DecoratedKey.of(pk(k)));
          }
          keys.sort(null);
          for (DecoratedKey k : keys) {
            String e = expected(k.key()[1], q);
            if (!e.equals("static=null rows=[]")) {
              want.add(hex(k.key()) + ":" + e);
            }
          }
          assertThat(got).as("seed %d step %d scan", seed, step).isEqualTo(want);
        } else if (op < 970) {
          trace.add(step + " table.flush();");
          table.flush();
        } else if (op < 980) {
          trace.add(step + " table.compact();");
          table.compact();
        } else if (op < 990) {
          trace.add(step + " restart");
          engine.close();
          engine = Engine.open(options(batch));
          table = engine.table("ks", "t").orElseThrow();
        } else {
          trace.add(step + " crash");
          ((StorageEngine) engine).simulateCrash();
          engine = Engine.open(options(batch));
          table = engine.table("ks", "t").orElseThrow();
        }
      }
    } finally {
      engine.close();
    }
  }
}
