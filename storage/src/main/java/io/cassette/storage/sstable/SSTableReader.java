package io.cassette.storage.sstable;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.StorageException;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressor;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.io.Checksums;
import io.cassette.storage.partition.PartitionSource;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An open, immutable SSTable: statistics, Bloom filter and index summary in memory; data and
 * index read through positional reads. Reference-counted: the table's view holds one
 * reference, each read holds one while it runs; an obsolete SSTable's files are deleted
 * when the last reference goes. Thread-safe.
 */
public final class SSTableReader {
  private final SSTableDescriptor descriptor;
  private final SSTableStats stats;
  private final BloomFilter bloom;
  private final long[] summaryTokens;
  private final byte[][] summaryKeys;
  private final long[] summaryPositions;
  private final Compressor compressor;
  private final int chunkLength;
  private final int indexChunkLength;
  private final io.cassette.storage.io.ReadChannel dataChannel;
  private final io.cassette.storage.io.ReadChannel indexChannel;
  private final java.nio.MappedByteBuffer dataMap;
  private final java.nio.MappedByteBuffer indexMap;
  /** The files' paths, for error messages: resolved once, not on every read (a hot spot). */
  private final Path dataPath;
  private final Path indexPath;
  private final AtomicInteger refs = new AtomicInteger(1);
  private volatile boolean obsolete;
  private final AtomicLong bloomFalsePositives = new AtomicLong();
  private static final AtomicLong NEXT_CACHE_ID = new AtomicLong();
  /** This open SSTable's name in the chunk cache (times two, plus one for its index). */
  private final long cacheId = NEXT_CACHE_ID.incrementAndGet();
  private volatile ChunkCache cache;
  private volatile ChunkCache indexCache;
  /** Data positions of partitions read lately (no row index): a hit skips the index. */
  private KeyCache keyCache = KeyCache.SHARED;

  /**
   * Point reads of this SSTable keep data chunks in {@code cache} and index chunks in
   * {@code indexCache} (null: not cached). Separate, so that data chunks never evict the
   * index chunks every lookup needs.
   */
  public void useCache(ChunkCache cache, ChunkCache indexCache) {
    this.cache = cache;
    this.indexCache = indexCache;
  }

  private SSTableReader(SSTableDescriptor descriptor, SSTableStats stats, BloomFilter bloom,
                        long[] summaryTokens, byte[][] summaryKeys, long[] summaryPositions,
                        Compressor compressor, int chunkLength, int indexChunkLength,
                        io.cassette.storage.io.ReadChannel data, io.cassette.storage.io.ReadChannel index) {
    this.descriptor = descriptor;
    this.stats = stats;
    this.bloom = bloom;
    this.summaryTokens = summaryTokens;
    this.summaryKeys = summaryKeys;
    this.summaryPositions = summaryPositions;
    this.subSummaries = new java.util.concurrent.atomic.AtomicReferenceArray<>(summaryPositions.length);
    this.compressor = compressor;
    this.chunkLength = chunkLength;
    this.indexChunkLength = indexChunkLength;
    this.dataChannel = data;
    this.indexChannel = index;
    this.dataMap = MappedFiles.map(data.channel(), stats.dataLength());
    this.indexMap = MappedFiles.map(index.channel(), stats.indexLength());
    this.dataPath = descriptor.path(SSTableDescriptor.Component.DATA);
    this.indexPath = descriptor.path(SSTableDescriptor.Component.INDEX);
  }

  /** Opens a complete SSTable, verifying Meta.db's checksum and the other files' headers and lengths. */
  public static SSTableReader open(SSTableDescriptor d) {
    Path metaPath = d.path(SSTableDescriptor.Component.META);
    SSTableStats stats;
    BloomFilter bloom;
    long[] tokens;
    byte[][] keys;
    long[] positions;
    try (InputStream is = new BufferedInputStream(Files.newInputStream(metaPath), 64 * 1024)) {
      StreamDataReader in = new StreamDataReader(is, metaPath.toString());
      int magic = in.readInt();
      if (magic != SSTableDescriptor.META_MAGIC) {
        throw new StorageException("corrupt SSTable file " + metaPath + " at offset 0: magic "
            + Integer.toHexString(magic) + " (expected: " + Integer.toHexString(SSTableDescriptor.META_MAGIC) + ")");
      }
      int version = in.readByte() << 8 | in.readByte();
      if (version < SSTableDescriptor.MIN_READABLE_FORMAT_VERSION || version > SSTableDescriptor.FORMAT_VERSION) {
        throw new StorageException("SSTable " + metaPath + " has format version " + version
            + " (expected: " + SSTableDescriptor.MIN_READABLE_FORMAT_VERSION + " to " + SSTableDescriptor.FORMAT_VERSION + ")");
      }
      long partitionCount = in.readVarLong();
      long minTs = in.readLong();
      long maxTs = in.readLong();
      long minLdt = in.readLong();
      long maxLdt = in.readLong();
      long tombstones = in.readVarLong();
      byte[] first = in.readLengthPrefixed(Integer.MAX_VALUE - 8);
      byte[] last = in.readLengthPrefixed(Integer.MAX_VALUE - 8);
      CommitLogPosition upper = new CommitLogPosition(in.readLong(), in.readLong());
      long dataLength = in.readLong();
      long indexLength = in.readLong();
      long uncompressed = in.readLong();
      int hashCount = in.readByte();
      int wordCount = in.readVarInt();
      if (wordCount <= 0 || wordCount > BloomFilter.MAX_WORDS) {
        throw new StorageException("corrupt SSTable file " + metaPath + " at offset " + in.offset()
            + ": bloom filter of " + wordCount + " words");
      }
      long[] words = new long[wordCount];
      for (int i = 0; i < wordCount; i++) {
        words[i] = in.readLong();
      }
      bloom = new BloomFilter(words, hashCount);
      in.readVarInt(); // summary interval
      int count = in.readVarInt();
      if (count < 0 || count > partitionCount) {
        throw new StorageException("corrupt SSTable file " + metaPath + " at offset " + in.offset()
            + ": summary of " + count + " entries for " + partitionCount + " partitions");
      }
      tokens = new long[count];
      keys = new byte[count][];
      positions = new long[count];
      for (int i = 0; i < count; i++) {
        tokens[i] = in.readLong();
        keys[i] = in.readLengthPrefixed(Integer.MAX_VALUE - 8);
        positions[i] = in.readVarLong();
      }
      int expected = in.checksum();
      long footerOffset = in.offset();
      int stored = in.readInt();
      if (stored != expected) {
        throw new StorageException("corrupt SSTable file " + metaPath + " at offset " + footerOffset
            + ": checksum failed (hardware problem?)");
      }
      if (is.read() >= 0) {
        throw new StorageException("corrupt SSTable file " + metaPath + ": extended past its footer at offset "
            + (footerOffset + 4));
      }
      stats = new SSTableStats(partitionCount, minTs, maxTs, minLdt, maxLdt, tombstones,
          io.cassette.storage.DecoratedKey.of(first), io.cassette.storage.DecoratedKey.of(last),
          upper, dataLength, indexLength, uncompressed);
    } catch (IOException e) {
      throw new StorageException("cannot read " + metaPath + ": " + e, e);
    }
    io.cassette.storage.io.ReadChannel data = null;
    io.cassette.storage.io.ReadChannel index = null;
    try {
      data = new io.cassette.storage.io.ReadChannel(d.path(SSTableDescriptor.Component.DATA));
      index = new io.cassette.storage.io.ReadChannel(d.path(SSTableDescriptor.Component.INDEX));
      int[] dataHeader = checkChunkedFile(d.path(SSTableDescriptor.Component.DATA), data,
          SSTableDescriptor.DATA_MAGIC, stats.dataLength());
      int[] indexHeader = checkChunkedFile(d.path(SSTableDescriptor.Component.INDEX), index,
          SSTableDescriptor.INDEX_MAGIC, stats.indexLength());
      if (dataHeader[0] != indexHeader[0]) {
        throw new StorageException("SSTable " + d + ": data and index use different codecs");
      }
      return new SSTableReader(d, stats, bloom, tokens, keys, positions, Compressors.byId(dataHeader[0]),
          dataHeader[1], indexHeader[1], data, index);
    } catch (IOException | RuntimeException e) {
      closeQuietly(data);
      closeQuietly(index);
      if (e instanceof StorageException se) {
        throw se;
      }
      throw new StorageException("cannot open SSTable " + d + ": " + e, e);
    }
  }

  /** Returns {compressorId, chunkLength} after checking magic, version, header crc and length. */
  private static int[] checkChunkedFile(Path path, io.cassette.storage.io.ReadChannel ch, int magic,
                                        long expectedLength) throws IOException {
    long size = ch.size();
    if (size != expectedLength) {
      throw new StorageException("corrupt SSTable file " + path + ": " + (size < expectedLength ? "truncated" : "extended")
          + " to " + size + " bytes (expected: " + expectedLength + ")");
    }
    ByteBuffer h = ByteBuffer.allocate(ChunkedFileWriter.HEADER_SIZE);
    while (h.hasRemaining()) {
      if (ch.read(h, h.position()) < 0) {
        throw new StorageException("corrupt SSTable file " + path + ": truncated header");
      }
    }
    h.flip();
    int m = h.getInt();
    int version = h.getShort();
    int compressorId = h.get();
    h.get();
    int chunkLength = h.getInt();
    int crc = h.getInt();
    if (m != magic || crc != Checksums.crc32c(h.array(), 0, 12)) {
      throw new StorageException("corrupt SSTable file " + path + " at offset 0: bad header");
    }
    if (version < SSTableDescriptor.MIN_READABLE_FORMAT_VERSION || version > SSTableDescriptor.FORMAT_VERSION) {
      throw new StorageException("SSTable file " + path + " has format version " + version
          + " (expected: " + SSTableDescriptor.MIN_READABLE_FORMAT_VERSION + " to " + SSTableDescriptor.FORMAT_VERSION + ")");
    }
    if (chunkLength <= 0 || chunkLength > Compressors.MAX_CHUNK_LENGTH) {
      throw new StorageException("corrupt SSTable file " + path + " at offset 10: chunk length " + chunkLength);
    }
    return new int[] {compressorId, chunkLength};
  }

  private static void closeQuietly(io.cassette.storage.io.ReadChannel ch) {
    if (ch != null) {
      ch.close();
    }
  }

  /** This open SSTable's id in its key cache: for tests. */
  long keyCacheId() {
    return cacheId;
  }

  /** Tests only, before any read: another key cache than the JVM's. */
  void useKeyCache(KeyCache keyCache) {
    this.keyCache = keyCache;
  }

  public SSTableDescriptor descriptor() {
    return descriptor;
  }

  public SSTableStats stats() {
    return stats;
  }

  ChunkedFileReader dataReader() {
    return new ChunkedFileReader(dataPath, dataChannel, dataMap,
        stats.dataLength(), compressor, chunkLength);
  }

  ChunkedFileReader indexReader() {
    return new ChunkedFileReader(indexPath, indexChannel, indexMap,
        stats.indexLength(), compressor, indexChunkLength);
  }

  /** True if the key is inside the key range and passes the Bloom filter. */
  public boolean mightContain(DecoratedKey key) {
    return key.compareTo(stats.firstKey()) >= 0 && key.compareTo(stats.lastKey()) <= 0
        && bloom.mightContain(key);
  }

  /**
   * The partition's version in this SSTable, or null. Requires: a reference held while the
   * returned source is used.
   */
  public PartitionSource partition(DecoratedKey key) {
    if (!mightContain(key)) {
      return null;
    }
    long cached = keyCache.get(cacheId, key.token());
    if (cached >= 0) {
      ChunkedFileReader data = ChunkedFileReader.forPointRead(dataPath, dataChannel,
          dataMap, stats.dataLength(), compressor, chunkLength, cache, cacheId * 2);
      data.seek(cached);
      if (data.compareLengthPrefixed(key.key(), io.cassette.storage.partition.PartitionSerializer.MAX_VALUE_LENGTH) == 0) {
        return new SSTablePartition(data, key, cached, null, true);
      }
      data.close(); // another key with the same token: the index says where this one is
    }
    int i = floorSummary(key.token(), key.key(), false);
    ChunkCache chunkCache = cache;
    ChunkedFileReader index = ChunkedFileReader.forPointRead(indexPath, indexChannel,
        indexMap, stats.indexLength(), compressor, indexChunkLength, indexCache, cacheId * 2 + 1);
    long dataPosition = -1;
    RowIndex rowIndex = null;
    try {
      long start = i < 0 ? SSTableDescriptor.encodePosition(ChunkedFileWriter.HEADER_SIZE, 0) : summaryPositions[i];
      int first = 0; // entries of the block skipped by the sub-summary
      long[] sub = i < 0 ? null : subSummary(i, index);
      if (sub != null && sub.length > 0) {
        int j = sub.length / 2 - 1;
        while (j > 0 && sub[j] >= key.token()) { // the last marked entry whose token is below the key's
          j--;
        }
        first = j * SUB_INTERVAL;
        start = sub[sub.length / 2 + j];
      }
      index.seek(start);
      for (int n = first; n < SSTableDescriptor.SUMMARY_INTERVAL && !index.atEnd(); n++) {
        // entries below the key inside the loaded chunk in one tight loop; the rest as before
        n += index.skipIndexEntriesBelow(key.token(), SSTableDescriptor.SUMMARY_INTERVAL - n);
        if (n == SSTableDescriptor.SUMMARY_INTERVAL || index.atEnd()) {
          break;
        }
        long token = index.readLong();
        int c = Long.compare(token, key.token());
        if (c == 0) {
          c = index.compareLengthPrefixed(key.key(), io.cassette.storage.partition.PartitionSerializer.MAX_VALUE_LENGTH);
        } else {
          index.skip(index.readVarInt());
        }
        long position = index.readVarLong();
        if (c == 0) {
          dataPosition = position;
          rowIndex = RowIndex.read(index);
          break;
        }
        if (c > 0) {
          break;
        }
        RowIndex.skip(index);
      }
    } finally {
      index.close();
    }
    if (dataPosition < 0) {
      bloomFalsePositives.incrementAndGet();
      return null;
    }
    if (rowIndex == null) {
      keyCache.put(cacheId, key.token(), dataPosition);
    }
    ChunkedFileReader data = ChunkedFileReader.forPointRead(dataPath, dataChannel,
        dataMap, stats.dataLength(), compressor, chunkLength, chunkCache, cacheId * 2);
    return new SSTablePartition(data, key, dataPosition, rowIndex, true);
  }

  /**
   * One Index.db entry in this many within a summary block is marked in the block's sub-summary,
   * so a point read walks at most this many entries after it instead of up to
   * {@link SSTableDescriptor#SUMMARY_INTERVAL}: the walk (64 entries on average) was the largest
   * share of a stress read's samples. Memory: 16 longs (144 bytes) per block read at least
   * once, about 1.1 bytes per partition read, less than the Bloom filter's 10 bits per partition.
   */
  static final int SUB_INTERVAL = 16;
  /** Per summary block, once built: the marked entries' tokens, then their encoded positions. */
  private final java.util.concurrent.atomic.AtomicReferenceArray<long[]> subSummaries;

  /**
   * Summary block {@code i}'s sub-summary, built by walking the block the first time it is asked
   * for (racing builders build the same array; one is kept). Leaves {@code index} anywhere.
   */
  private long[] subSummary(int i, ChunkedFileReader index) {
    long[] sub = subSummaries.get(i);
    if (sub != null) {
      return sub;
    }
    long[] tokens = new long[SSTableDescriptor.SUMMARY_INTERVAL / SUB_INTERVAL];
    long[] positions = new long[tokens.length];
    int marked = 0;
    index.seek(summaryPositions[i]);
    for (int n = 0; n < SSTableDescriptor.SUMMARY_INTERVAL && !index.atEnd(); n++) {
      long position = index.position();
      long token = index.readLong();
      if (n % SUB_INTERVAL == 0) {
        tokens[marked] = token;
        positions[marked++] = position;
      }
      index.skip(index.readLength(io.cassette.storage.partition.PartitionSerializer.MAX_VALUE_LENGTH));
      index.readVarLong();
      RowIndex.skip(index);
    }
    sub = new long[2 * marked];
    System.arraycopy(tokens, 0, sub, 0, marked);
    System.arraycopy(positions, 0, sub, marked, marked);
    subSummaries.compareAndSet(i, null, sub); // published with release semantics: readers see the filled array
    return subSummaries.get(i);
  }

  /**
   * Index of the last summary entry before the bound: {@code <= (token,key)} or, when
   * {@code strictToken}/{@code key == null}, with a token smaller than {@code token}; -1 if none.
   */
  private int floorSummary(long token, byte[] key, boolean strictToken) {
    int lo = 0;
    int hi = summaryTokens.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compare(summaryTokens[mid], token);
      if (c == 0) {
        c = key == null || strictToken ? 1 : io.cassette.storage.Bytes.compare(summaryKeys[mid], key);
      }
      if (c <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * The key of the Index.db entry at {@code indexPosition} (an encoded position, as Digest.db
   * keeps it). Requires: a reference held.
   */
  public DecoratedKey keyAt(long indexPosition) {
    ChunkedFileReader index = new ChunkedFileReader(descriptor.path(SSTableDescriptor.Component.INDEX), indexChannel,
        indexMap, stats.indexLength(), compressor, indexChunkLength, indexCache, cacheId * 2 + 1, true);
    try {
      index.seek(indexPosition);
      long token = index.readLong();
      return new DecoratedKey(token, index.readLengthPrefixed(io.cassette.storage.partition.PartitionSerializer.MAX_VALUE_LENGTH));
    } finally {
      index.close();
    }
  }

  /** Partitions of {@code range} in order. Requires: a reference held until the scanner is closed. */
  public SSTableScanner scanner(KeyRange range) {
    long start = SSTableDescriptor.encodePosition(ChunkedFileWriter.HEADER_SIZE, 0);
    if (range.after() != null) {
      int i = floorSummary(range.after().token(), range.after().key(), range.after().key() == null);
      if (i >= 0) {
        start = summaryPositions[i];
      }
    }
    return new SSTableScanner(this, start, range);
  }

  /** Takes a reference; false if the SSTable is already released (re-read the table's view). */
  public boolean tryRef() {
    while (true) {
      int n = refs.get();
      if (n <= 0) {
        return false;
      }
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** References held now (the view's, readers', compactions'): for tests and diagnostics. */
  public int references() {
    return refs.get();
  }

  public void release() {
    if (refs.decrementAndGet() == 0) {
      MappedFiles.unmap(dataMap);
      MappedFiles.unmap(indexMap);
      closeQuietly(dataChannel);
      closeQuietly(indexChannel);
      if (obsolete) {
        deleteFiles(descriptor);
      }
    }
  }

  /** Marks the files for deletion once the last reference is released. */
  public void markObsolete() {
    obsolete = true;
  }

  public static void deleteFiles(SSTableDescriptor d) {
    // Meta.db first: without it the remains are recognized as incomplete at the next open.
    for (SSTableDescriptor.Component c : new SSTableDescriptor.Component[] {
        SSTableDescriptor.Component.META, SSTableDescriptor.Component.DIGEST, SSTableDescriptor.Component.INDEX,
        SSTableDescriptor.Component.DATA}) {
      try {
        Files.deleteIfExists(d.path(c));
      } catch (IOException e) {
        // left for the cleanup at next open
      }
    }
  }

  public long bytesOnDisk() {
    long meta;
    try {
      meta = Files.size(descriptor.path(SSTableDescriptor.Component.META));
    } catch (IOException e) {
      meta = 0;
    }
    return stats.dataLength() + stats.indexLength() + meta;
  }

  /** Seconds since this SSTable was written (its Meta.db's modification time). */
  public long ageSeconds() {
    try {
      long written = Files.getLastModifiedTime(descriptor.path(SSTableDescriptor.Component.META)).toMillis();
      return Math.max(0, (System.currentTimeMillis() - written) / 1000);
    } catch (IOException e) {
      return 0;
    }
  }

  public long bloomFalsePositives() {
    return bloomFalsePositives.get();
  }

  public long bloomFilterBytes() {
    return bloom.sizeInBytes();
  }

  @Override
  public String toString() {
    return "SSTable[" + descriptor + "]";
  }
}
