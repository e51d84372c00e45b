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
 * Reads the entries of an SSTable's Digest.db ({@link DigestFile}, version 2 or 1) whose tokens
 * fall in a token range, in order: a binary search over the blocks' first tokens, then block
 * after block, each verified by its checksum before use; a version-2 entry's token is read from
 * the Index.db entry it points to (sequentially: the entries are in the index's order). Memory:
 * one block, decoded. Not thread-safe; close it.
 * REQUIRES: a reference on the SSTable held while it is used.
 */
public final class DigestFileReader implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final SSTableReader sstable;
  private final long entries;
  private final long afterToken;
  private final long endToken;
  private int version;
  private long fileLength;
  /** Version 2: where the directory starts (the end of the last block). */
  private long directoryOffset;
  private final ByteBuffer block = ByteBuffer.allocate(Math.max(DigestFile.MAX_BLOCK_BYTES,
      DigestFile.BLOCK_ENTRIES * DigestFile.ENTRY_BYTES_V1 + DigestFile.BLOCK_CRC_BYTES));
  /** Version 2: Index.db, read for the entries' tokens; opened with the first block. */
  private ChunkedFileReader index;
  /** The block loaded, decoded: one slot per entry. */
  private final long[] tokens = new long[DigestFile.BLOCK_ENTRIES];
  private final long[] highs = new long[DigestFile.BLOCK_ENTRIES];
  private final long[] positions = new long[DigestFile.BLOCK_ENTRIES];
  private final boolean[] digests = new boolean[DigestFile.BLOCK_ENTRIES];
  /** The block in the slots, and the next entry of it to read. */
  private long blockIndex = -1;
  private int entriesInBlock;
  private int next;
  private long previousToken = Long.MIN_VALUE;
  private boolean done;

  private int current;

  private DigestFileReader(Path path, FileChannel channel, SSTableReader sstable, long afterToken, long endToken) {
    this.path = path;
    this.channel = channel;
    this.sstable = sstable;
    this.entries = sstable.stats().partitionCount();
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
    FileChannel ch;
    try {
      ch = FileChannel.open(path, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new StorageException("cannot open " + path + ": " + e, e);
    }
    DigestFileReader r = new DigestFileReader(path, ch, sstable, afterToken, endToken);
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
      fileLength = channel.size();
      ByteBuffer h = ByteBuffer.allocate(DigestFile.HEADER_BYTES);
      readFully(h, 0);
      int magic = h.getInt(0);
      version = h.getShort(4) & 0xFFFF;
      int blockEntries = h.getInt(8);
      if (magic != DigestFile.MAGIC || h.getInt(12) != Checksums.crc32c(h.array(), 0, 12)) {
        throw new StorageException("corrupt digest file " + path + ": bad header");
      }
      if ((version != DigestFile.VERSION && version != DigestFile.VERSION_1)
          || blockEntries != DigestFile.BLOCK_ENTRIES) {
        throw new StorageException("digest file " + path + " of version " + version + " with " + blockEntries
            + " entries a block (expected: " + DigestFile.VERSION + " or " + DigestFile.VERSION_1 + ", "
            + DigestFile.BLOCK_ENTRIES + ")");
      }
      long blocks = DigestFile.blocks(entries);
      if (version == DigestFile.VERSION_1 && fileLength != DigestFile.lengthV1(entries)) {
        throw new StorageException("corrupt digest file " + path + ": " + fileLength + " bytes (expected: "
            + DigestFile.lengthV1(entries) + " for " + entries + " partitions)");
      }
      directoryOffset = fileLength - blocks * DigestFile.DIRECTORY_ENTRY_BYTES;
      long least = DigestFile.HEADER_BYTES + blocks * (DigestFile.BLOCK_HEADER_BYTES + DigestFile.BLOCK_CRC_BYTES) + entries;
      if (version == DigestFile.VERSION && directoryOffset < least) {
        throw new StorageException("corrupt digest file " + path + ": " + fileLength + " bytes (expected: at least "
            + (least + blocks * DigestFile.DIRECTORY_ENTRY_BYTES) + " for " + entries + " partitions)");
      }
    } catch (IOException e) {
      throw new StorageException("cannot read " + path + ": " + e, e);
    }
  }

  /** Block {@code b}'s first token as the file's block list says (unverified: a probe). */
  private long probeFirstToken(long b, ByteBuffer eight) {
    eight.clear();
    readFully(eight, version == DigestFile.VERSION_1 ? DigestFile.blockOffsetV1(b)
        : directoryOffset + b * DigestFile.DIRECTORY_ENTRY_BYTES);
    return eight.getLong(0);
  }

  /** Positions before the first entry with a token above {@code afterToken}. */
  private void seek() {
    long blocks = DigestFile.blocks(entries);
    if (blocks == 0) {
      done = true;
      return;
    }
    // The last block whose first token is <= afterToken: no later entry of an earlier block is above it.
    long lo = 0;
    long hi = blocks - 1;
    long found = 0;
    ByteBuffer eight = ByteBuffer.allocate(8);
    while (lo <= hi) {
      long mid = (lo + hi) >>> 1;
      if (probeFirstToken(mid, eight) <= afterToken) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    loadBlock(found);
    // The probes were not verified; the block now is. If it contradicts them, read from the start.
    if (found > 0 && tokens[0] > afterToken) {
      loadBlock(0);
    }
  }

  private void loadBlock(long b) {
    long firstEntry = b * DigestFile.BLOCK_ENTRIES;
    int count = (int) Math.min(DigestFile.BLOCK_ENTRIES, entries - firstEntry);
    if (version == DigestFile.VERSION_1) {
      loadBlockV1(b, count);
    } else {
      loadBlockV2(b, count);
    }
    blockIndex = b;
    entriesInBlock = count;
    next = 0;
  }

  private void loadBlockV1(long b, int count) {
    int bytes = count * DigestFile.ENTRY_BYTES_V1;
    block.clear().limit(bytes + DigestFile.BLOCK_CRC_BYTES);
    long offset = DigestFile.blockOffsetV1(b);
    readFully(block, offset);
    if (block.getInt(bytes) != Checksums.crc32c(block.array(), 0, bytes)) {
      throw new StorageException("corrupt digest file " + path + " at offset " + offset + ": checksum failed");
    }
    for (int i = 0; i < count; i++) {
      int at = i * DigestFile.ENTRY_BYTES_V1;
      tokens[i] = block.getLong(at);
      highs[i] = block.getLong(at + 8);
      long last = block.getLong(at + 24);
      digests[i] = (last & DigestFile.NO_DIGEST_V1) == 0;
      positions[i] = last & DigestFile.POSITION_MASK_V1;
    }
  }

  private void loadBlockV2(long b, int count) {
    ByteBuffer dir = ByteBuffer.allocate(2 * DigestFile.DIRECTORY_ENTRY_BYTES);
    long dirAt = directoryOffset + b * DigestFile.DIRECTORY_ENTRY_BYTES;
    dir.limit(dirAt + dir.capacity() <= fileLength ? dir.capacity() : DigestFile.DIRECTORY_ENTRY_BYTES);
    readFully(dir, dirAt);
    long firstToken = dir.getLong(0);
    long offset = dir.getLong(8);
    long end = dir.limit() > DigestFile.DIRECTORY_ENTRY_BYTES ? dir.getLong(24) : directoryOffset;
    long length = end - offset;
    if (offset < DigestFile.HEADER_BYTES || length < DigestFile.BLOCK_HEADER_BYTES + DigestFile.BLOCK_CRC_BYTES + count
        || length > DigestFile.MAX_BLOCK_BYTES || end > directoryOffset) {
      throw new StorageException("corrupt digest file " + path + ": block " + b + " at " + offset + ".." + end);
    }
    int bytes = (int) length - DigestFile.BLOCK_CRC_BYTES;
    block.clear().limit((int) length);
    readFully(block, offset);
    if (block.getInt(bytes) != Checksums.crc32c(block.array(), 0, bytes)) {
      throw new StorageException("corrupt digest file " + path + " at offset " + offset + ": checksum failed");
    }
    block.position(0).limit(bytes);
    if (index == null) {
      index = sstable.indexReader();
    }
    try {
      long position = block.getLong();
      for (int i = 0; i < count; i++) {
        long step = getVarLong();
        position += step >>> 1;
        digests[i] = (step & DigestFile.STEP_NO_DIGEST) == 0;
        highs[i] = digests[i] ? block.getLong() : 0;
        positions[i] = position;
        index.seek(position);
        tokens[i] = index.readLong();
      }
    } catch (java.nio.BufferUnderflowException e) {
      throw new StorageException("corrupt digest file " + path + " at offset " + offset + ": block " + b
          + " shorter than its " + count + " entries");
    }
    if (block.hasRemaining() || tokens[0] != firstToken) {
      throw new StorageException("corrupt digest file " + path + " at offset " + offset + ": block " + b
          + " does not match its directory entry or its partitions");
    }
  }

  private long getVarLong() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte x = block.get();
      v |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        return v;
      }
    }
    throw new StorageException("corrupt digest file " + path + ": a varlong over 10 bytes");
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
      if (tokens[current] > afterToken) {
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
    long t = tokens[next];
    if (t > endToken) {
      done = true;
      return false;
    }
    if (t < previousToken) {
      throw new StorageException("corrupt digest file " + path + ": token " + t + " after " + previousToken);
    }
    previousToken = t;
    current = next++;
    return true;
  }

  public long token() {
    return tokens[current];
  }

  /** Whether this entry holds the partition's digest (else it must be computed from the partition). */
  public boolean hasDigest() {
    return digests[current];
  }

  /** The partition's digest: the high 64 bits of its {@link io.cassette.storage.partition.PartitionDigest}. */
  public long high() {
    return highs[current];
  }

  /** Where the partition's Index.db entry is (see {@link SSTableReader#keyAt}). */
  public long indexPosition() {
    return positions[current];
  }

  /** The file's format version (2, or 1 for files written before session 8). */
  public int version() {
    return version;
  }

  @Override
  public void close() {
    if (index != null) {
      index.close();
      index = null;
    }
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
