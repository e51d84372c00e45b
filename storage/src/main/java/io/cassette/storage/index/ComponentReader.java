package io.cassette.storage.index;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.StorageException;
import io.cassette.storage.io.ReadChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * An open index component: checks magic, version and checksum at open (telling truncated from
 * damaged), and maps row ids to primary keys. Thread-safe; each reader thread uses its own
 * {@link IndexInput}.
 */
class ComponentReader implements AutoCloseable {
  final Path path;
  final ReadChannel channel;
  final long length;
  final byte kind;
  final int rowCount;
  final long rowOffsetsAt;
  final long bodyAt;
  final long summaryAt;
  final int summaryCount;
  final long termCount;

  ComponentReader(Path path) {
    this.path = path;
    try {
      this.channel = new ReadChannel(path);
      this.length = channel.size();
    } catch (IOException e) {
      throw new StorageException("cannot open index component " + path + ": " + e, e);
    }
    try {
      if (length < IndexComponent.HEADER_BYTES + IndexComponent.TRAILER_BYTES) {
        throw new StorageException("index component " + path + " truncated: " + length + " bytes");
      }
      IndexInput in = new IndexInput(channel, length);
      if (in.int4() != IndexComponent.MAGIC) {
        throw new StorageException("index component " + path + ": bad magic at offset 0 (expected CSAI)");
      }
      int version = in.int4();
      if (version != IndexComponent.VERSION) {
        throw new StorageException("index component " + path + " has version " + version + " (expected: "
            + IndexComponent.VERSION + ")");
      }
      this.kind = (byte) in.byte1();
      in.seek(length - IndexComponent.TRAILER_BYTES);
      this.rowCount = in.int4();
      this.rowOffsetsAt = in.long8();
      this.bodyAt = in.long8();
      this.summaryAt = in.long8();
      this.summaryCount = in.int4();
      this.termCount = in.long8();
      int crc = in.int4();
      if (in.int4() != IndexComponent.MAGIC) {
        throw new StorageException("index component " + path + " truncated or extended (no footer magic at offset "
            + (length - 4) + ")");
      }
      verify(crc);
    } catch (RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private void verify(int expected) {
    CRC32C crc = new CRC32C();
    ByteBuffer b = ByteBuffer.allocate(64 * 1024);
    long end = length - 8;
    long at = 0;
    try {
      while (at < end) {
        b.clear();
        b.limit((int) Math.min(b.capacity(), end - at));
        int n = channel.read(b, at);
        if (n <= 0) {
          break;
        }
        b.flip();
        crc.update(b);
        at += n;
      }
    } catch (IOException e) {
      throw new StorageException("cannot read index component " + path + ": " + e, e);
    }
    if ((int) crc.getValue() != expected) {
      throw new StorageException("index component " + path + ": checksum failed (hardware problem?)");
    }
  }

  IndexInput input() {
    return new IndexInput(channel, length);
  }

  PrimaryKey key(IndexInput in, int rowId) {
    in.seek(rowOffsetsAt + 8L * rowId);
    in.seek(in.long8());
    long token = in.long8();
    byte[] key = in.lengthPrefixed();
    byte[] clustering = in.lengthPrefixed();
    return new PrimaryKey(new DecoratedKey(token, key), clustering);
  }

  /** The first row id whose key {@code started} accepts (monotone in row order); rowCount if none. */
  int first(IndexInput in, java.util.function.Predicate<PrimaryKey> started) {
    int lo = 0;
    int hi = rowCount;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (!started.test(key(in, mid))) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  long bytesOnDisk() {
    return length;
  }

  @Override
  public void close() {
    channel.close();
  }
}
