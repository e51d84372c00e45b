package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the entries of an SSTable's Digest.db ({@link DigestFile}) whose tokens fall in a
 * token range, in order: a binary search over the blocks' first tokens, then block after block,
 * each verified by its checksum before use. Memory: one block. Not thread-safe; close it.
 * REQUIRES: a reference on the SSTable held while it is used.
 */
public final class DigestFileReader implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final long entries;
  private final long afterToken;
  private final long endToken;
  private final ByteBuffer block = ByteBuffer.allocate(DigestFile.BLOCK_ENTRIES * DigestFile.ENTRY_BYTES
      + DigestFile.BLOCK_CRC_BYTES);
  /** The block in {@link #block}, and the next entry of it to read. */
  private long blockIndex = -1;
  private int entriesInBlock;
  private int next;
  private long previousToken = Long.MIN_VALUE;
  private boolean done;

  private long token;
  private long high;
  private long low;
  private long last;

  private DigestFileReader(Path path, FileChannel channel, long entries, long afterToken, long endToken) {
    this.path = path;
    this.channel = channel;
    this.entries = entries;
    this.afterToken = afterToken;
    this.endToken = endToken;
  }

  /**
   * The entries of {@code sstable} with {@code afterToken < token <= endToken}, or null when
   * the SSTable has no Digest.db (written before it existed). A file of the wrong length or
   * header, or a block whose checksum fails, raises a {@link StorageException} naming it.
   */
  public static DigestFileReader open(SSTableReader sstable, long afterToken, long endToken) {
    Path path = sstable.descriptor().path(SSTableDescriptor.Component.DIGEST);
    long entries = sstable.stats().partitionCount();
    FileChannel ch;
    try {
      ch = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new StorageException("cannot open " + path + ": " + e, e);
    }
    DigestFileReader r = new DigestFileReader(path, ch, entries, afterToken, endToken);
    try {
      r.checkHeader();
      r.seek();
      return r;
    } catch (RuntimeException e) {
      r.close();
      throw e;
    }
  }

  private void checkHeader() {
    try {
      long length = channel.size();
      if (length != DigestFile.length(entries)) {
        throw new StorageException("corrupt digest file " + path + ": " + length + " bytes (expected: "
            + DigestFile.length(entries) + " for " + entries + " partitions)");
      }
      ByteBuffer h = ByteBuffer.allocate(DigestFile.HEADER_BYTES);
      readFully(h, 0);
      int magic = h.getInt(0);
      int version = h.getShort(4) & 0xFFFF;
      int blockEntries = h.getInt(8);
      if (magic != DigestFile.MAGIC || h.getInt(12) != Checksums.crc32c(h.array(), 0, 12)) {
        throw new StorageException("corrupt digest file " + path + ": bad header");
      }
      if (version != DigestFile.VERSION || blockEntries != DigestFile.BLOCK_ENTRIES) {
        throw new StorageException("digest file " + path + " of version " + version + " with " + blockEntries
            + " entries a block (expected: " + DigestFile.VERSION + ", " + DigestFile.BLOCK_ENTRIES + ")");
      }
    } catch (IOException e) {
      throw new StorageException("cannot read " + path + ": " + e, e);
    }
  }

  /** Positions before the first entry with a token above {@code afterToken}. */
  private void seek() {
    long blocks = (entries + DigestFile.BLOCK_ENTRIES - 1) / DigestFile.BLOCK_ENTRIES;
    if (blocks == 0) {
      done = true;
      return;
    }
    // The last block whose first token is <= afterToken: no later entry of an earlier block is above it.
    long lo = 0;
    long hi = blocks - 1;
    long found = 0;
    ByteBuffer first = ByteBuffer.allocate(8);
    while (lo <= hi) {
      long mid = (lo + hi) >>> 1;
      first.clear();
      readFully(first, DigestFile.blockOffset(mid));
      if (first.getLong(0) <= afterToken) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    loadBlock(found);
    // The probes were not verified; the block now is. If it contradicts them, read from the start.
    if (found > 0 && block.getLong(0) > afterToken) {
      loadBlock(0);
    }
  }

  private void loadBlock(long b) {
    long firstEntry = b * DigestFile.BLOCK_ENTRIES;
    int count = (int) Math.min(DigestFile.BLOCK_ENTRIES, entries - firstEntry);
    int bytes = count * DigestFile.ENTRY_BYTES;
    block.clear().limit(bytes + DigestFile.BLOCK_CRC_BYTES);
    long offset = DigestFile.blockOffset(b);
    readFully(block, offset);
    if (block.getInt(bytes) != Checksums.crc32c(block.array(), 0, bytes)) {
      throw new StorageException("corrupt digest file " + path + " at offset " + offset + ": checksum failed");
    }
    blockIndex = b;
    entriesInBlock = count;
    next = 0;
  }

  private void readFully(ByteBuffer b, long offset) {
    try {
      while (b.hasRemaining()) {
        int n = channel.read(b, offset + b.position());
        if (n < 0) {
          throw new StorageException("corrupt digest file " + path + ": truncated at " + (offset + b.position()));
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot read " + path + ": " + e, e);
    }
  }

  /** Moves to the next entry in the range; false when there is none. */
  public boolean next() {
    while (advance()) {
      if (token > afterToken) {
        return true;
      }
    }
    return false;
  }

  private boolean advance() {
    if (done) {
      return false;
    }
    if (next == entriesInBlock) {
      long b = blockIndex + 1;
      if (b * DigestFile.BLOCK_ENTRIES >= entries) {
        done = true;
        return false;
      }
      loadBlock(b);
    }
    int at = next * DigestFile.ENTRY_BYTES;
    long t = block.getLong(at);
    if (t > endToken) {
      done = true;
      return false;
    }
    if (t < previousToken) {
      throw new StorageException("corrupt digest file " + path + ": token " + t + " after " + previousToken);
    }
    previousToken = t;
    token = t;
    high = block.getLong(at + 8);
    low = block.getLong(at + 16);
    last = block.getLong(at + 24);
    next++;
    return true;
  }

  public long token() {
    return token;
  }

  /** Whether this entry holds the partition's digest (else it must be computed from the partition). */
  public boolean hasDigest() {
    return (last & DigestFile.NO_DIGEST) == 0;
  }

  public long high() {
    return high;
  }

  public long low() {
    return low;
  }

  /** Where the partition's Index.db entry is (see {@link SSTableReader#keyAt}). */
  public long indexPosition() {
    return last & DigestFile.POSITION_MASK;
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // read-only
    }
  }

  /** Tests: whether Digest.db exists for this SSTable. */
  public static boolean exists(SSTableReader sstable) {
    return Files.exists(sstable.descriptor().path(SSTableDescriptor.Component.DIGEST));
  }
}
