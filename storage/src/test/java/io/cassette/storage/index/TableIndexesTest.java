package io.cassette.storage.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage's side of SAI without CQL: postings from the memtable and from components written at
 * flush and compaction, merged; component files checked (a flipped byte is named as a
 * checksum failure, and the component is rebuilt from its SSTable), and deleted once their
 * SSTable is compacted away.
 */
class TableIndexesTest {
  @TempDir
  Path dir;

  private static final UUID ID = UUID.fromString("00000000-0000-0000-0000-000000000022");
  /** Terms are the cell's 4 value bytes with the sign bit flipped: unsigned order is int order. */
  private static final TermExtractor INT = (Cell c, java.util.function.Consumer<byte[]> out) -> {
    byte[] t = c.value().clone();
    t[0] ^= (byte) 0x80;
    out.accept(t);
  };

  @Test
  void postingsFromEverySegmentAndCheckedFiles() throws Exception {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", ID));
      t.indexes().define(List.of(IndexDefinition.terms("n_idx", "n", INT)));
      for (int i = 0; i < 300; i++) {
        write(t, i, i % 50 - 25);
        if (i == 100 || i == 200) {
          t.flush();
        }
      }
      assertThat(keys(t, -3, 3)).hasSize(6 * 6);
      t.compact();
      assertThat(keys(t, -3, 3)).hasSize(36);
      assertThat(components()).hasSize(1);
    }
    Path component = components().get(0);
    try (FileChannel ch = FileChannel.open(component, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, 40);
      b.put(0, (byte) (b.get(0) ^ 0x10));
      ch.write(b.flip(), 40);
    }
    assertThatThrownBy(() -> new TermIndexReader(component)).isInstanceOf(StorageException.class)
        .hasMessageContaining("checksum failed");
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.table("ks", "t").orElseThrow();
      t.indexes().define(List.of(IndexDefinition.terms("n_idx", "n", INT)));
      assertThat(keys(t, -3, 3)).hasSize(36);
      assertThat(keys(t, 24, 25)).hasSize(6);
      t.indexes().define(List.of());
      assertThat(components()).isEmpty();
    }
  }

  /** Memtable postings are heap the memtable holds: counted in its bytes and the node's memtable budget. */
  @Test
  void memtablePostingsCountInTheMemtableBudget() {
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table plain = e.createTable(TableSpec.withDefaults("ks", "t", ID));
      Table indexed = e.createTable(TableSpec.withDefaults("ks", "u",
          UUID.fromString("00000000-0000-0000-0000-000000000023")));
      indexed.indexes().define(List.of(IndexDefinition.terms("n_idx", "n", INT)));
      long before = e.metrics().memtableBytes();
      for (int i = 0; i < 1000; i++) {
        write(plain, i, i);
      }
      long rows = e.metrics().memtableBytes() - before;
      for (int i = 0; i < 1000; i++) {
        write(indexed, i, i);
      }
      long withPostings = e.metrics().memtableBytes() - before - rows;
      // 1000 distinct terms, one key each: at least the terms' entries and keys on top of the rows
      assertThat(withPostings - rows).isGreaterThanOrEqualTo(1000L * (MemtableIndex.TERM_ENTRY_BYTES
          + MemtableIndex.KEY_ENTRY_BYTES));
      assertThat(indexed.metrics().memtableBytes()).isEqualTo(withPostings);
      indexed.flush();
      assertThat(e.metrics().memtableBytes() - before).as("released with the flushed memtable").isEqualTo(rows);
    }
  }

  private static void write(Table t, int key, int n) {
    byte[] k = ByteBuffer.allocate(4).putInt(key).array();
    byte[] v = ByteBuffer.allocate(4).putInt(n).array();
    t.apply(PartitionUpdate.builder(t.spec().keyspace(), t.spec().name(), k).row(Row.of(new byte[0], List.of(Cell.live("n", v, 1)))).build());
  }

  private static List<PrimaryKey> keys(Table t, int from, int to) {
    byte[] lo = ByteBuffer.allocate(4).putInt(from ^ Integer.MIN_VALUE).array();
    byte[] hi = ByteBuffer.allocate(4).putInt(to ^ Integer.MIN_VALUE).array();
    List<PrimaryKey> out = new ArrayList<>();
    Iterator<PrimaryKey> it = t.indexes().search(List.of(new IndexExpression("n_idx", lo, true, hi, false)),
        KeyRange.ALL, null);
    it.forEachRemaining(out::add);
    for (int i = 1; i < out.size(); i++) {
      assertThat(out.get(i)).isGreaterThan(out.get(i - 1));
    }
    return out;
  }

  private List<Path> components() throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.getFileName().toString().contains("-SAI_")).toList();
    }
  }
}
