package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineBasicsTest {
  @TempDir
  Path dir;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static long now() {
    return System.currentTimeMillis() / 1000;
  }

  static PartitionUpdate put(String pk, String ck, String col, String value, long ts) {
    return PartitionUpdate.builder("ks", "t", b(pk))
        .row(new Row(b(ck), LivenessInfo.of(ts), DeletionTime.LIVE, List.of(Cell.live(col, b(value), ts))))
        .build();
  }

  static List<String> values(PartitionView v, String col) {
    List<String> out = new ArrayList<>();
    for (Row r : v.rows()) {
      Cell c = r.cell(col);
      out.add(new String(r.clustering(), StandardCharsets.UTF_8) + "=" + (c == null ? null : new String(c.value(), StandardCharsets.UTF_8)));
    }
    return out;
  }

  @Test
  void writesSurviveFlushAndRestart() {
    TableSpec spec = TableSpec.withDefaults("ks", "t", UUID.randomUUID());
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(spec);
      t.apply(put("p1", "a", "v", "1", 10));
      t.apply(put("p1", "b", "v", "2", 10));
      assertThat(values(t.read(b("p1"), ReadQuery.all(now())), "v")).containsExactly("a=1", "b=2");
      t.flush();
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
      t.apply(put("p1", "a", "v", "3", 20));
      t.apply(put("p1", "c", "v", "4", 5));
      assertThat(values(t.read(b("p1"), ReadQuery.all(now())), "v")).containsExactly("a=3", "b=2", "c=4");
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      assertThat(t.spec()).isEqualTo(spec);
      assertThat(values(t.read(b("p1"), ReadQuery.all(now())), "v")).containsExactly("a=3", "b=2", "c=4");
      // an older write loses to a newer one across memtable and SSTable
      t.apply(put("p1", "a", "v", "old", 15));
      assertThat(values(t.read(b("p1"), ReadQuery.all(now())), "v")).containsExactly("a=3", "b=2", "c=4");
      t.compact();
      assertThat(t.metrics().sstableCount()).isEqualTo(1);
      assertThat(values(t.read(b("p1"), ReadQuery.all(now())), "v")).containsExactly("a=3", "b=2", "c=4");
    }
  }

  @Test
  void replaysCommitLogAfterCrash() {
    TableSpec spec = TableSpec.withDefaults("ks", "t", UUID.randomUUID());
    Engine e = Engine.open(EngineOptions.defaults(dir));
    Table t = e.createTable(spec);
    t.apply(put("p1", "a", "v", "1", 10));
    t.flush();
    t.apply(put("p1", "b", "v", "2", 10));
    ((StorageEngine) e).simulateCrash();
    try (Engine e2 = Engine.open(EngineOptions.defaults(dir))) {
      Table t2 = e2.table("ks", "t").orElseThrow();
      assertThat(values(t2.read(b("p1"), ReadQuery.all(now())), "v")).containsExactly("a=1", "b=2");
    }
  }

  @Test
  void deletionsTtlsAndSlices() {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (String ck : List.of("a", "b", "c", "d", "e")) {
        t.apply(put("p", ck, "v", ck.toUpperCase(), 10));
      }
      t.flush();
      long now = now();
      // range tombstone [b, c], then a row deletion of e, then an expired cell on a
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .deleteRange(new Slice(b("b"), true, b("c"), true), new DeletionTime(11, now)).build());
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .row(new Row(b("e"), LivenessInfo.EMPTY, new DeletionTime(11, now), List.of())).build());
      t.apply(PartitionUpdate.builder("ks", "t", b("p"))
          .row(Row.of(b("a"), List.of(Cell.expiring("w", b("x"), 12, 1, now - 5)))).build());
      assertThat(values(t.read(b("p"), ReadQuery.all(now)), "v")).containsExactly("a=A", "d=D");
      ReadQuery rev = new ReadQuery(List.of(Slice.ALL), true, 1, now);
      assertThat(values(t.read(b("p"), rev), "v")).containsExactly("d=D");
      ReadQuery limited = new ReadQuery(List.of(new Slice(b("a"), false, Bytes.EMPTY, true)), false, 5, now);
      assertThat(values(t.read(b("p"), limited), "v")).containsExactly("d=D");
      t.flush();
      t.compact();
      assertThat(values(t.read(b("p"), ReadQuery.all(now)), "v")).containsExactly("a=A", "d=D");
      t.apply(PartitionUpdate.builder("ks", "t", b("p")).deletePartition(new DeletionTime(100, now)).build());
      assertThat(t.read(b("p"), ReadQuery.all(now)).isEmpty()).isTrue();
      t.apply(put("p", "z", "v", "Z", 101));
      assertThat(values(t.read(b("p"), ReadQuery.all(now)), "v")).containsExactly("z=Z");
    }
  }

  @Test
  void scansInTokenOrderWithPaging() {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      for (int i = 0; i < 50; i++) {
        t.apply(put("k" + i, "c", "v", "" + i, 1));
        if (i == 20) {
          t.flush();
        }
      }
      List<DecoratedKey> keys = new ArrayList<>();
      try (Table.CloseableIterator<PartitionView> it = t.scan(KeyRange.ALL, ReadQuery.all(now()))) {
        it.forEachRemaining(p -> keys.add(p.key()));
      }
      assertThat(keys).hasSize(50).isSorted();
      DecoratedKey mid = keys.get(24);
      List<DecoratedKey> rest = new ArrayList<>();
      try (Table.CloseableIterator<PartitionView> it = t.scan(new KeyRange(mid, Long.MAX_VALUE), ReadQuery.all(now()))) {
        it.forEachRemaining(p -> rest.add(p.key()));
      }
      assertThat(rest).isEqualTo(keys.subList(25, 50));
      List<DecoratedKey> byToken = new ArrayList<>();
      try (Table.CloseableIterator<PartitionView> it = t.scan(KeyRange.tokens(keys.get(9).token(), keys.get(19).token()), ReadQuery.all(now()))) {
        it.forEachRemaining(p -> byToken.add(p.key()));
      }
      assertThat(byToken).isEqualTo(keys.subList(10, 20));
    }
  }

  @Test
  void truncateDropAndUnknownTable() {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      t.apply(put("p", "a", "v", "1", 1));
      t.flush();
      t.apply(put("p", "b", "v", "2", 1));
      t.truncate();
      assertThat(t.read(b("p"), ReadQuery.all(now())).isEmpty()).isTrue();
      t.apply(put("p", "c", "v", "3", 1));
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      assertThat(values(t.read(b("p"), ReadQuery.all(now())), "v")).containsExactly("c=3");
      e.dropTable("ks", "t");
      assertThat(e.table("ks", "t")).isEmpty();
      assertThatThrownBy(() -> e.apply(Mutation.of(put("p", "a", "v", "1", 1))))
          .isInstanceOf(StorageException.class).hasMessageContaining("unknown table ks.t");
    }
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      assertThat(e.tables()).isEmpty();
    }
  }

  @Test
  void aTableRecreatedWithTheSameIdDoesNotGetTheOldData() {
    TableSpec spec = TableSpec.withDefaults("ks", "t", UUID.randomUUID());
    Engine e = Engine.open(EngineOptions.defaults(dir));
    e.createTable(spec).apply(put("p", "a", "v", "old", 1));
    e.dropTable("ks", "t");
    e.createTable(spec).apply(put("p", "b", "v", "new", 2));
    ((StorageEngine) e).simulateCrash();
    try (Engine e2 = Engine.open(EngineOptions.defaults(dir))) {
      assertThat(values(e2.table("ks", "t").orElseThrow().read(b("p"), ReadQuery.all(now())), "v")).containsExactly("b=new");
    }
  }
}
