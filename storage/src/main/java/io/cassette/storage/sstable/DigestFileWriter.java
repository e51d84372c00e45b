package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes an SSTable's Digest.db ({@link DigestFile}) beside its Index.db, one entry per
 * partition in the same order. Memory: one block (8 KiB). Not thread-safe.
 */
final class DigestFileWriter implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final ByteBuffer block = ByteBuffer.allocate(DigestFile.BLOCK_ENTRIES * DigestFile.ENTRY_BYTES
      + DigestFile.BLOCK_CRC_BYTES);
  private int entriesInBlock;
  private long entries;
  private boolean closed;

  DigestFileWriter(Path path) {
    this.path = path;
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
      ByteBuffer h = ByteBuffer.allocate(DigestFile.HEADER_BYTES);
      h.putInt(DigestFile.MAGIC).putShort((short) DigestFile.VERSION).putShort((short) 0)
          .putInt(DigestFile.BLOCK_ENTRIES);
      h.putInt(Checksums.crc32c(h.array(), 0, 12));
      h.flip();
      writeFully(h);
    } catch (IOException e) {
      throw new StorageException("cannot create " + path + ": " + e, e);
    }
  }

  /** The next partition's entry; {@code digest} false when it has none ({@code high}, {@code low} ignored). */
  void add(long token, boolean digest, long high, long low, long indexPosition) {
    if ((indexPosition & ~DigestFile.POSITION_MASK) != 0) {
      throw new IllegalArgumentException("index position " + indexPosition + " (expected: < 2^56)");
    }
    block.putLong(token);
    block.putLong(digest ? high : 0);
    block.putLong(digest ? low : 0);
    block.putLong(indexPosition | (digest ? 0 : DigestFile.NO_DIGEST));
    entries++;
    if (++entriesInBlock == DigestFile.BLOCK_ENTRIES) {
      writeBlock();
    }
  }

  private void writeBlock() {
    int length = block.position();
    block.putInt(Checksums.crc32c(block.array(), 0, length));
    block.flip();
    try {
      writeFully(block);
    } catch (IOException e) {
      throw new StorageException("cannot write " + path + ": " + e, e);
    }
    block.clear();
    entriesInBlock = 0;
  }

  private void writeFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }

  long entries() {
    return entries;
  }

  /** Writes the last block and fsyncs; the caller renames the file. */
  void finish() {
    if (entriesInBlock > 0) {
      writeBlock();
    }
    try {
      channel.force(true);
    } catch (IOException e) {
      throw new StorageException("cannot sync " + path + ": " + e, e);
    }
    close();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      try {
        channel.close();
      } catch (IOException e) {
        // nothing was lost: a failed close after force, or an abort
      }
    }
  }
}
