package io.cassette.storage.sstable;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.Row;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.io.FileTree;
import io.cassette.storage.partition.PartitionSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An SSTable partition lookup that no cache answers, for {@code InterleavedAb}: one SSTable of
 * {@code rows} stress-like partitions (10-byte keys) opened without chunk caches and with a key
 * cache of one set, so every lookup walks an LZ4 Index.db chunk it decodes itself (the cold
 * read's case when the index cache does not admit the chunk). {@link #batch}: 20,000 lookups
 * of random keys. In this package because the key cache is swapped by a package-private method.
 * {@code java -XX:TieredStopAtLevel=1 -Xmx256m -cp CLASSES io.cassette.bench.jmh.InterleavedAb A.cp B.cp
 * io.cassette.storage.sstable.IndexLookupAb batch 20000 40}
 */
public class IndexLookupAb {
  public String rows = "200000";
  private Path dir;
  private SSTableReader reader;
  private DecoratedKey[] keys;
  private int next;
  public long sink;

  public void setUp() throws Exception {
    int n = Integer.parseInt(rows);
    dir = Files.createTempDirectory("cassette-index-lookup-ab");
    List<DecoratedKey> sorted = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      sorted.add(DecoratedKey.of(String.format("%010d", i).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }
    sorted.sort(null);
    SSTableWriter w = new SSTableWriter(new SSTableDescriptor(dir, 1), Compressors.LZ4, 16384, n, 0.01, null);
    byte[] value = new byte[34];
    for (DecoratedKey k : sorted) {
      w.beginPartition(k, DeletionTime.LIVE, List.of());
      w.row(Row.of(Bytes.EMPTY, List.of(Cell.live("C0", value, 1))));
      w.endPartition();
    }
    reader = SSTableReader.open(w.finish(CommitLogPosition.NONE));
    reader.useKeyCache(new KeyCache(1));
    SplittableRandom r = new SplittableRandom(42);
    keys = new DecoratedKey[1 << 16];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = sorted.get(r.nextInt(n));
    }
  }

  public void batch() {
    for (int i = 0; i < 20_000; i++) {
      PartitionSource p = reader.partition(keys[next++ & (keys.length - 1)]);
      sink += p == null ? 0 : 1;
      if (p != null) {
        p.release();
      }
    }
  }

  public void tearDown() throws Exception {
    reader.release();
    FileTree.delete(dir);
  }
}
