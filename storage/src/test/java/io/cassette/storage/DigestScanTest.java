package io.cassette.storage;

import static io.cassette.storage.EngineBasicsTest.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.sstable.DigestFileReader;
import io.cassette.storage.sstable.SSTableReader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#digests}: two replicas holding the same writes give the same digests whatever
 * their SSTables (one file, several, some in the memtable, compacted), with TTLs and every kind
 * of tombstone; one differing cell gives one differing digest; stored digests are used where
 * they can be, and a missing or damaged Digest.db falls back to computing, with the same answer.
 */
class DigestScanTest {
  private static final int PARTITIONS = 700; // three Digest.db blocks (256 entries each)
  private static final UUID ID = UUID.randomUUID();

  @TempDir
  Path dir;

  private final long now = System.currentTimeMillis() / 1000;

  /** Partition {@code i}'s writes: four rows, and by {@code i} TTLs and tombstones of every kind. */
  private List<PartitionUpdate> writes(int i) {
    List<PartitionUpdate> out = new ArrayList<>();
    byte[] key = b("k" + i);
    long ts = 1_000_000L + i;
    for (int r = 0; r < 4; r++) {
      List<Cell> cells = new ArrayList<>();
      cells.add(Cell.live("a", b("v" + i + "." + r), ts));
      if (i % 7 == 0 && r == 1) {
        cells.add(Cell.expiring("b", b("gone"), ts, 10, now - 100)); // expired 90 s ago
      } else if (i % 19 == 0 && r == 2) {
        cells.add(Cell.expiring("b", b("later"), ts, 100_000, now)); // not yet expired
      } else if (i % 11 == 0 && r == 3) {
        cells.add(Cell.tombstone("b", ts + 5, now - 10));
      } else if (i % 23 == 0 && r == 0) {
        cells.add(Cell.tombstone("b", ts + 5, now - 1_000_000)); // older than gc grace
      } else {
        cells.add(Cell.live("b", b("w" + r), ts));
      }
      out.add(PartitionUpdate.builder("ks", "t", key)
          .row(new Row(b("c" + r), LivenessInfo.of(ts), DeletionTime.LIVE, cells)).build());
    }
    if (i % 13 == 0) {
      out.add(PartitionUpdate.builder("ks", "t", key)
          .deleteRange(new Slice(b("c2"), true, b("c3"), false), new DeletionTime(ts + 1, now - 5)).build());
    }
    if (i % 17 == 0) {
      out.add(PartitionUpdate.builder("ks", "t", key)
          .row(new Row(b("c1"), LivenessInfo.EMPTY, new DeletionTime(ts + 2, now - 5), List.of())).build());
    }
    if (i % 29 == 0) {
      out.add(PartitionUpdate.builder("ks", "t", key).deletePartition(new DeletionTime(ts - 1, now - 5)).build());
    }
    return out;
  }

  private static List<TokenDigest> digests(Table t, long after, long end, long now) {
    List<TokenDigest> out = new ArrayList<>();
    try (Table.CloseableIterator<TokenDigest> it = t.digests(after, end, now)) {
      while (it.hasNext()) {
        out.add(it.next());
      }
    }
    return out;
  }

  /** Digests without their origin, in a fixed order (partitions of one token come in any order). */
  private static List<String> content(List<TokenDigest> ds) {
    List<String> out = new ArrayList<>();
    for (TokenDigest d : ds) {
      out.add(String.format("%020d %016x%016x", d.token(), d.high(), d.low()));
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static long stored(List<TokenDigest> ds) {
    return ds.stream().filter(TokenDigest::stored).count();
  }

  private Table table(Engine e) {
    return e.createTable(TableSpec.withDefaults("ks", "t", ID));
  }

  @Test
  void sameWritesInDifferentLayoutsGiveEqualDigestsAndOneCellDiffers() {
    try (Engine a = Engine.open(EngineOptions.defaults(dir.resolve("a")));
         Engine b = Engine.open(EngineOptions.defaults(dir.resolve("b")))) {
      Table ta = table(a);
      Table tb = table(b);
      // a: everything in one SSTable.
      for (int i = 0; i < PARTITIONS; i++) {
        writes(i).forEach(ta::apply);
      }
      ta.flush();
      // b: each partition's writes spread over three SSTables and the memtable, in another order.
      List<List<PartitionUpdate>> parts = new ArrayList<>();
      for (int i = PARTITIONS - 1; i >= 0; i--) {
        parts.add(writes(i));
      }
      for (int round = 0; round < 4; round++) {
        for (List<PartitionUpdate> p : parts) {
          for (int k = round; k < p.size(); k += 4) {
            tb.apply(p.get(k));
          }
        }
        if (round < 3) {
          tb.flush();
        }
      }
      assertThat(tb.metrics().sstableCount()).isEqualTo(3);

      List<TokenDigest> da = digests(ta, Long.MIN_VALUE, Long.MAX_VALUE, now);
      List<TokenDigest> db = digests(tb, Long.MIN_VALUE, Long.MAX_VALUE, now);
      assertThat(da).hasSize(PARTITIONS);
      assertThat(content(db)).isEqualTo(content(da));
      // a's timeless partitions (no TTL, no tombstone) come from Digest.db; b's are in several places.
      assertThat(stored(da)).isGreaterThan(PARTITIONS / 3).isLessThan(PARTITIONS);
      assertThat(stored(db)).isZero();
      // Token order, and a sub-range is the slice of the whole.
      for (int i = 1; i < da.size(); i++) {
        assertThat(da.get(i).token()).isGreaterThanOrEqualTo(da.get(i - 1).token());
      }
      long lo = da.get(100).token();
      long hi = da.get(600).token();
      assertThat(content(digests(tb, lo, hi, now))).isEqualTo(content(da.subList(101, 601)));

      // Compacted (expired cells become tombstones, old tombstones are purged): still equal.
      tb.compact();
      List<TokenDigest> compacted = digests(tb, Long.MIN_VALUE, Long.MAX_VALUE, now);
      assertThat(content(compacted)).isEqualTo(content(da));
      assertThat(stored(compacted)).isGreaterThan(stored(da)); // and purged tombstones leave timeless partitions

      // One newer cell on b: exactly that partition's digest differs.
      tb.apply(PartitionUpdate.builder("ks", "t", b("k5"))
          .row(Row.of(b("c2"), List.of(Cell.live("a", b("newer"), 5_000_000L)))).build());
      List<String> after = content(digests(tb, Long.MIN_VALUE, Long.MAX_VALUE, now));
      List<String> differing = new ArrayList<>(after);
      differing.removeAll(content(da));
      assertThat(differing).hasSize(1);
      assertThat(differing.get(0)).startsWith(String.format("%020d", Murmur3Token.of(b("k5"))));
      tb.flush(); // in two SSTables now: computed, same answer
      assertThat(content(digests(tb, Long.MIN_VALUE, Long.MAX_VALUE, now))).isEqualTo(after);
    }
  }

  @Test
  void laterValidationSeesExpiryAndGcGraceAsCompactionWould() {
    try (Engine a = Engine.open(EngineOptions.defaults(dir.resolve("a")));
         Engine b = Engine.open(EngineOptions.defaults(dir.resolve("b")))) {
      Table ta = table(a);
      Table tb = table(b);
      for (int i = 0; i < 200; i++) {
        writes(i).forEach(ta::apply);
        writes(i).forEach(tb::apply);
      }
      ta.flush();
      tb.flush();
      tb.compact();
      // 2 days on: the not-yet-expired cells have expired (a converts them, b too); at 11 days
      // every tombstone is past gc grace, on the replica that purged some as on the other.
      for (long later : new long[] {now + 2 * 86_400, now + 11 * 86_400}) {
        assertThat(content(digests(tb, Long.MIN_VALUE, Long.MAX_VALUE, later)))
            .isEqualTo(content(digests(ta, Long.MIN_VALUE, Long.MAX_VALUE, later)));
      }
      assertThat(content(digests(ta, Long.MIN_VALUE, Long.MAX_VALUE, now + 2 * 86_400)))
          .isNotEqualTo(content(digests(ta, Long.MIN_VALUE, Long.MAX_VALUE, now)));
    }
  }

  @Test
  void missingOrDamagedDigestFileFallsBackToComputing() throws IOException {
    try (Engine a = Engine.open(EngineOptions.defaults(dir.resolve("a")))) {
      Table t = table(a);
      for (int i = 0; i < PARTITIONS; i++) {
        writes(i).forEach(t::apply);
      }
      t.flush();
      List<TokenDigest> good = digests(t, Long.MIN_VALUE, Long.MAX_VALUE, now);
      assertThat(stored(good)).isPositive();
      Path digestFile;
      try (Stream<Path> files = Files.walk(dir.resolve("a"))) {
        digestFile = files.filter(p -> p.getFileName().toString().endsWith("-Digest.db")).findFirst().orElseThrow();
      }
      // A flipped byte in the third block: the first blocks are used, the rest computed.
      byte[] saved = Files.readAllBytes(digestFile);
      try (RandomAccessFile f = new RandomAccessFile(digestFile.toFile(), "rw")) {
        f.seek(f.length() - 16 + 8); // the directory's last entry: the third block's offset
        long at = f.readLong() + 40;
        f.seek(at);
        int v = f.read();
        f.seek(at);
        f.write(v ^ 0x55);
      }
      List<TokenDigest> damaged = digests(t, Long.MIN_VALUE, Long.MAX_VALUE, now);
      assertThat(content(damaged)).isEqualTo(content(good));
      assertThat(stored(damaged)).isPositive().isLessThan(stored(good));
      // No Digest.db (an SSTable written before it existed): every digest computed.
      Files.delete(digestFile);
      List<TokenDigest> none = digests(t, Long.MIN_VALUE, Long.MAX_VALUE, now);
      assertThat(content(none)).isEqualTo(content(good));
      assertThat(stored(none)).isZero();
      Files.write(digestFile, saved);
      assertThat(stored(digests(t, Long.MIN_VALUE, Long.MAX_VALUE, now))).isEqualTo(stored(good));
      // A snapshot links the digest file with the others, and skips it where there is none.
      t.snapshot("s1");
      try (Stream<Path> files = Files.walk(dir.resolve("a"))) {
        assertThat(files.filter(p -> p.toString().contains("snapshots") && p.toString().endsWith("-Digest.db"))
            .count()).isEqualTo(1);
      }
    }
  }

  /**
   * A Digest.db of version 1 (32-byte entries with the token and 128-bit digest, written before
   * session 8) gives the same digests as version 2, from its stored entries; a sub-range too.
   */
  @Test
  void versionOneDigestFilesAreStillRead() throws IOException {
    try (Engine a = Engine.open(EngineOptions.defaults(dir.resolve("a")))) {
      Table t = table(a);
      for (int i = 0; i < PARTITIONS; i++) {
        writes(i).forEach(t::apply);
      }
      t.flush();
      List<TokenDigest> good = digests(t, Long.MIN_VALUE, Long.MAX_VALUE, now);
      long middle = good.get(good.size() / 2).token();
      List<TokenDigest> goodTail = digests(t, middle, Long.MAX_VALUE, now);
      TableView view = ((LocalTable) t).acquireView();
      Path digestFile;
      java.io.ByteArrayOutputStream entries = new java.io.ByteArrayOutputStream();
      long count = 0;
      try {
        SSTableReader r = view.sstables().get(0);
        digestFile = r.descriptor().path(io.cassette.storage.sstable.SSTableDescriptor.Component.DIGEST);
        try (DigestFileReader f = DigestFileReader.open(r, Long.MIN_VALUE, Long.MAX_VALUE)) {
          assertThat(f.version()).isEqualTo(2);
          java.nio.ByteBuffer e = java.nio.ByteBuffer.allocate(32);
          while (f.next()) {
            e.clear();
            // the low half is what version 1 kept beside the high; any value: it is not used
            e.putLong(f.token()).putLong(f.high()).putLong(0x5555_5555_5555_5555L)
                .putLong(f.indexPosition() | (f.hasDigest() ? 0 : 1L << 56));
            entries.write(e.array(), 0, 32);
            count++;
          }
        }
      } finally {
        LocalTable.release(view);
      }
      assertThat(count).isEqualTo(PARTITIONS);
      long v2Bytes = Files.size(digestFile);
      java.nio.ByteBuffer v1 = java.nio.ByteBuffer.allocate((int) (16 + count * 32 + 3 * 4));
      v1.putInt(0x43535447).putShort((short) 1).putShort((short) 0).putInt(256);
      v1.putInt(io.cassette.storage.io.Checksums.crc32c(v1.array(), 0, 12));
      byte[] all = entries.toByteArray();
      for (int from = 0; from < all.length; from += 256 * 32) {
        int length = Math.min(256 * 32, all.length - from);
        v1.put(all, from, length).putInt(io.cassette.storage.io.Checksums.crc32c(all, from, length));
      }
      Files.write(digestFile, v1.array());
      List<TokenDigest> fromV1 = digests(t, Long.MIN_VALUE, Long.MAX_VALUE, now);
      assertThat(content(fromV1)).isEqualTo(content(good));
      assertThat(stored(fromV1)).isEqualTo(stored(good)).isPositive();
      assertThat(content(digests(t, middle, Long.MAX_VALUE, now))).isEqualTo(content(goodTail));
      // what version 2 saves: 32 bytes a partition in version 1, 1 + 8 (with a digest) in version 2
      assertThat(v2Bytes).isLessThan(16 + PARTITIONS * 10L + 3 * (8 + 4 + 16));
    }
  }
}
