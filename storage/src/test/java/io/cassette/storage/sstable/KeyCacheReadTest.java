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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point reads through the key cache: a second read of a partition skips the index and returns
 * the same row; a cached position that is another partition's (two keys sharing a token) is
 * caught by the key stored there and the index answers; partitions with a row index are not
 * cached.
 */
class KeyCacheReadTest {
  @TempDir
  Path dir;

  private static DecoratedKey key(int i) {
    return DecoratedKey.of(("p" + i).getBytes(StandardCharsets.US_ASCII));
  }

  private static String value(PartitionSource p) {
    Iterator<Row> rows = p.rows(Bytes.EMPTY);
    Row r = rows.next();
    return new String(r.cells().get(0).value(), StandardCharsets.US_ASCII);
  }

  @Test
  void aCachedPositionIsUsedOnlyForItsOwnKey() {
    List<DecoratedKey> keys = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      keys.add(key(i));
    }
    keys.sort(null);
    DecoratedKey large = keys.get(300);
    SSTableWriter w = new SSTableWriter(new SSTableDescriptor(dir, 1), Compressors.LZ4, 4096, keys.size(), 0.01, null);
    for (DecoratedKey k : keys) {
      w.beginPartition(k, DeletionTime.LIVE, List.of());
      if (k.equals(large)) { // 40 KiB of rows: a row index
        for (int r = 0; r < 400; r++) {
          w.row(Row.of(ByteBuffer.allocate(4).putInt(r).array(), List.of(Cell.live("v", new byte[100], 1))));
        }
      } else {
        w.row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", ("value of " + new String(k.key(), StandardCharsets.US_ASCII))
            .getBytes(StandardCharsets.US_ASCII), 1))));
      }
      w.endPartition();
    }
    SSTableReader reader = SSTableReader.open(w.finish(CommitLogPosition.NONE));
    try {
      KeyCache cache = new KeyCache(64 * 1024);
      reader.useKeyCache(cache);
      long id = reader.keyCacheId();
      for (int round = 0; round < 2; round++) {
        for (DecoratedKey k : keys) {
          PartitionSource p = reader.partition(k);
          try {
            if (!k.equals(large)) {
              assertThat(value(p)).isEqualTo("value of " + new String(k.key(), StandardCharsets.US_ASCII));
            }
          } finally {
            p.release();
          }
        }
      }
      assertThat(cache.hits()).as("second round from the cache").isGreaterThan(550); // 600 keys in 512 sets of 4: a few sets overflow
      assertThat(cache.get(id, large.token())).as("a partition with a row index").isEqualTo(-1);
      // keys 20 and 21 as if they shared a token: 21's position cached under 20's token
      long elsewhere = cache.get(id, keys.get(21).token());
      assertThat(elsewhere).isGreaterThanOrEqualTo(0);
      KeyCache poisoned = new KeyCache(64 * 1024);
      poisoned.put(id, keys.get(20).token(), elsewhere);
      reader.useKeyCache(poisoned);
      PartitionSource p = reader.partition(keys.get(20));
      try {
        assertThat(value(p)).isEqualTo("value of " + new String(keys.get(20).key(), StandardCharsets.US_ASCII));
      } finally {
        p.release();
      }
      assertThat(poisoned.hits()).as("the poisoned entry was found, and not believed").isEqualTo(1);
      assertThat(reader.partition(key(100_000))).as("absent").isNull();
    } finally {
      reader.release();
    }
  }
}
