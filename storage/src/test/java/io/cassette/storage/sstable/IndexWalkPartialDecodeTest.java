package io.cassette.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.Row;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.partition.PartitionSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index walk of a point read decodes an LZ4 index chunk that no cache holds only as far
 * as it walks: every key is found, with keys of 1 to 300 bytes (one- and two-byte lengths,
 * entries crossing the decoder's steps), each read once so the key cache never answers.
 */
class IndexWalkPartialDecodeTest {
  @TempDir
  Path dir;

  @Test
  void everyKeyIsFoundThroughLazilyDecodedIndexChunks() {
    Random random = new Random(11);
    List<DecoratedKey> keys = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      byte[] k = new byte[1 + random.nextInt(i % 7 == 0 ? 300 : 24)];
      for (int b = 0; b < k.length; b++) {
        k[b] = (byte) ('a' + random.nextInt(4)); // compressible: LZ4 copies, not literals only
      }
      k[0] = (byte) i;
      keys.add(DecoratedKey.of(k));
    }
    keys = new ArrayList<>(new java.util.TreeSet<>(keys));
    SSTableWriter w = new SSTableWriter(new SSTableDescriptor(dir, 1), Compressors.LZ4, 4096, keys.size(), 0.01, null);
    for (DecoratedKey k : keys) {
      w.beginPartition(k, DeletionTime.LIVE, List.of());
      w.row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", k.key(), 1))));
      w.endPartition();
    }
    SSTableReader reader = SSTableReader.open(w.finish(CommitLogPosition.NONE)); // no chunk cache: nothing decoded whole
    try {
      for (DecoratedKey k : keys) {
        PartitionSource p = reader.partition(k);
        assertThat(p).as("key %s", Arrays.toString(k.key())).isNotNull();
        try {
          assertThat(p.rows(Bytes.EMPTY).next().cells().get(0).value()).isEqualTo(k.key());
        } finally {
          p.release();
        }
      }
    } finally {
      reader.release();
    }
  }
}
