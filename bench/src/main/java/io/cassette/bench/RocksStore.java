package io.cassette.bench;

import java.nio.file.Path;
import java.util.Arrays;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * RocksDB with its WAL on and no fsync per write (sync=false): the durability of Cassette's
 * periodic mode or looser. Keys are partition + clustering, so a slice is a prefix seek.
 */
final class RocksStore implements KeyValueStore {
  static {
    RocksDB.loadLibrary();
  }

  private final Options options;
  private final RocksDB db;
  private final WriteOptions writeOptions = new WriteOptions().setSync(false);

  RocksStore(Path dir) {
    options = new Options().setCreateIfMissing(true).setCompressionType(CompressionType.LZ4_COMPRESSION);
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  private static byte[] key(byte[] partition, byte[] clustering) {
    byte[] k = Arrays.copyOf(partition, partition.length + 1 + clustering.length);
    k[partition.length] = 0;
    System.arraycopy(clustering, 0, k, partition.length + 1, clustering.length);
    return k;
  }

  @Override
  public void put(byte[] partition, byte[] clustering, byte[] value) {
    try {
      db.put(writeOptions, key(partition, clustering), value);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean get(byte[] partition, byte[] clustering) {
    try {
      return db.get(key(partition, clustering)) != null;
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public int slice(byte[] partition, byte[] start, int limit) {
    byte[] prefix = key(partition, new byte[0]);
    int n = 0;
    try (RocksIterator it = db.newIterator()) {
      for (it.seek(key(partition, start)); it.isValid() && n < limit; it.next()) {
        byte[] k = it.key();
        if (k.length < prefix.length || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
          break;
        }
        it.value();
        n++;
      }
    }
    return n;
  }

  @Override
  public void flush() {
    try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
      db.flush(f);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    db.close();
    writeOptions.close();
    options.close();
  }
}
