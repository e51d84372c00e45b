package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Writes an SSTable's Digest.db ({@link DigestFile}, version 2) beside its Index.db, one
 * entry per partition in the same order. Memory: one block (at most 4.6 KiB) and the
 * directory (16 bytes a block of 256 partitions, written at the end). Not thread-safe.
 */
final class DigestFileWriter implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final ByteBuffer block = ByteBuffer.allocate(DigestFile.MAX_BLOCK_BYTES);
  /** firstToken, blockOffset of each block written. */
  private long[] directory = new long[32];
  private int blocks;
  private long offset = DigestFile.HEADER_BYTES;
  private int entriesInBlock;
  private long previousPosition;
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

  /**
   * The next partition's entry; {@code digest} false when it has none ({@code high}, {@code low}
   * ignored; only {@code high} is kept). Index positions grow from one partition to the next.
   */
  void add(long token, boolean digest, long high, long low, long indexPosition) {
    if (entriesInBlock == 0) {
      if (blocks * 2 == directory.length) {
        directory = Arrays.copyOf(directory, directory.length * 2);
      }
      directory[2 * blocks] = token;
      directory[2 * blocks + 1] = offset;
      blocks++;
      block.putLong(indexPosition);
      previousPosition = indexPosition;
    } else if (indexPosition <= previousPosition) {
      throw new IllegalArgumentException("index position " + indexPosition + " after " + previousPosition);
    }
    putVarLong((indexPosition - previousPosition) << 1 | (digest ? 0 : DigestFile.STEP_NO_DIGEST));
    if (digest) {
      block.putLong(high);
    }
    previousPosition = indexPosition;
    entries++;
    if (++entriesInBlock == DigestFile.BLOCK_ENTRIES) {
      writeBlock();
    }
  }

  private void putVarLong(long v) {
    while ((v & ~0x7FL) != 0) {
      block.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    block.put((byte) v);
  }

  private void writeBlock() {
    int length = block.position();
    block.putInt(Checksums.crc32c(block.array(), 0, length));
    block.flip();
    offset += block.remaining();
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

  /** Writes the last block and the directory, and fsyncs; the caller renames the file. */
  void finish() {
    if (entriesInBlock > 0) {
      writeBlock();
    }
    ByteBuffer d = ByteBuffer.allocate(blocks * DigestFile.DIRECTORY_ENTRY_BYTES);
    for (int i = 0; i < 2 * blocks; i++) {
      d.putLong(directory[i]);
    }
    d.flip();
    try {
      writeFully(d);
      channel.force(true);
    } catch (IOException e) {
      throw new StorageException("cannot write " + path + ": " + e, e);
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
