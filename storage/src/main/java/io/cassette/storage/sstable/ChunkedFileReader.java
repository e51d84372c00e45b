package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import io.cassette.storage.io.Compressor;
import io.cassette.storage.io.DataReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Reads a chunked file written by {@link ChunkedFileWriter} from any position, verifying
 * each chunk's checksum before decompressing it; keeps the current chunk so sequential
 * reads and re-seeks inside it cost nothing. A damaged chunk raises {@link StorageException}
 * naming the file and the chunk's offset. Not thread-safe (the channel is: positional reads).
 */
final class ChunkedFileReader implements DataReader {
  private Path path;
  private io.cassette.storage.io.ReadChannel channel;
  private long fileLength;
  private Compressor compressor;
  /**
   * The loaded chunk's bytes: {@link #decoded} after a decode, or the cache's own array after
   * a cache hit (read in place, never written: cached arrays are shared and immutable).
   */
  private byte[] chunk;
  /** This reader's pooled buffer that chunks are decoded into. */
  private byte[] decoded;
  private byte[] compressed;
  /** {@link #compressed} as a ByteBuffer for positional reads, made once per buffer. */
  private ByteBuffer compressedView;
  private long chunkOffset = -1; // file offset of the loaded chunk
  private int chunkLength; // uncompressed bytes in it
  /**
   * Bytes of the loaded chunk decoded so far ({@code chunk[0, decodedTo)} are final). A point
   * reader decodes a chunk only as far as it reads ({@link #have}): the row it wants lies half
   * way into the chunk on average, and decoding was half of a point read's storage CPU.
   * Everyone else decodes whole chunks at once ({@code decodedTo == chunkLength}).
   */
  private int decodedTo;
  /** The partial decode's state ({@link Compressor#decompressPart}) and the chunk's compressed length. */
  private long decodeState;
  private int storedLength;
  /** True for point readers: chunks decoded lazily. */
  private boolean lazyDecode;
  private long nextChunkOffset;
  private int pos;
  /** Where verified chunks are looked up and (for point reads) kept; null: not cached. */
  private ChunkCache cache;
  /** The open SSTable file's id in the cache (never 0 for a point read's reader). */
  private long cacheId;
  private boolean populateCache;
  /** Point readers go back to their thread's free list when closed (see {@link #forPointRead}). */
  private final boolean reusable;
  private boolean closed;

  /** The file mapped in memory, or null to use positional reads. */
  private java.nio.ByteBuffer mapped;

  /**
   * Free point readers, buffers included: a point read used to allocate two readers and
   * take and give back four pooled buffers through ThreadLocal lookups, which on the CQL
   * worker threads probed long chains (a sixth of a point read's samples in one profile).
   * One small array for all threads, each slot taken and filled by compare-and-set, so a
   * reader is never handed to two reads at once; {@link #close} is idempotent, so none is
   * listed twice. A reader keeps the chunk it last loaded: the next point read of the same
   * chunk of the same open file (ids are never reused, files never change), by any thread,
   * costs no lookup.
   */
  private static final java.util.concurrent.atomic.AtomicReferenceArray<ChunkedFileReader> FREE =
      new java.util.concurrent.atomic.AtomicReferenceArray<>(8);

  ChunkedFileReader(Path path, io.cassette.storage.io.ReadChannel channel, ByteBuffer mapped, long fileLength, Compressor compressor,
                    int chunkSize) {
    this(path, channel, mapped, fileLength, compressor, chunkSize, null, 0, false, false);
  }

  ChunkedFileReader(Path path, io.cassette.storage.io.ReadChannel channel, ByteBuffer mapped, long fileLength, Compressor compressor,
                    int chunkSize, ChunkCache cache, long cacheId, boolean populateCache) {
    this(path, channel, mapped, fileLength, compressor, chunkSize, cache, cacheId, populateCache, false);
  }

  private ChunkedFileReader(Path path, io.cassette.storage.io.ReadChannel channel, ByteBuffer mapped, long fileLength,
                            Compressor compressor, int chunkSize, ChunkCache cache, long cacheId, boolean populateCache,
                            boolean reusable) {
    this.mapped = mapped;
    this.cache = cache;
    this.cacheId = cacheId;
    this.populateCache = populateCache;
    this.path = path;
    this.channel = channel;
    this.fileLength = fileLength;
    this.compressor = compressor;
    this.reusable = reusable;
    this.decoded = ChunkBufferPool.take(chunkSize);
    this.chunk = decoded;
    this.compressed = ChunkBufferPool.take(ChunkedFileWriter.CHUNK_OVERHEAD + compressor.maxCompressedLength(chunkSize));
  }

  /**
   * A reader for a point read of the open file {@code cacheId} (unique in this JVM, never 0),
   * from this thread's free list when one of the right sizes is there. Requires: a reference
   * to the SSTable held until {@link #close}.
   */
  static ChunkedFileReader forPointRead(Path path, io.cassette.storage.io.ReadChannel channel, ByteBuffer mapped,
                                        long fileLength, Compressor compressor, int chunkSize, ChunkCache cache,
                                        long cacheId) {
    int compressedLength = ChunkedFileWriter.CHUNK_OVERHEAD + compressor.maxCompressedLength(chunkSize);
    ChunkedFileReader fit = null;
    int fitSlot = -1;
    for (int i = 0; i < FREE.length(); i++) {
      ChunkedFileReader r = FREE.get(i);
      if (r != null && r.decoded.length == chunkSize && r.compressed.length == compressedLength) {
        fit = r;
        fitSlot = i;
        if (r.cacheId == cacheId) {
          break; // it may still hold the chunk this read wants
        }
      }
    }
    if (fit == null || !FREE.compareAndSet(fitSlot, fit, null)) { // none, or another read took it first
      ChunkedFileReader r = new ChunkedFileReader(path, channel, mapped, fileLength, compressor, chunkSize, cache, cacheId, true, true);
      r.lazyDecode = true;
      return r;
    }
    fit.closed = false;
    if (fit.cacheId != cacheId || cacheId == 0) {
      fit.chunkOffset = -1; // another file: its loaded chunk means nothing here
      fit.chunk = fit.decoded;
      fit.chunkLength = 0;
      fit.decodedTo = 0;
      fit.nextChunkOffset = 0;
    }
    fit.pos = 0;
    fit.path = path;
    fit.channel = channel;
    fit.mapped = mapped;
    fit.fileLength = fileLength;
    fit.compressor = compressor;
    fit.cache = cache;
    fit.cacheId = cacheId;
    fit.populateCache = true;
    fit.lazyDecode = true;
    return fit;
  }

  /** Returns the buffers to the pool (or the reader to its thread's list); the reader must not be used afterwards. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (reusable && decoded != null) {
      channel = null; // the file may be closed before this reader is taken again
      mapped = null;
      for (int i = 0; i < FREE.length(); i++) {
        if (FREE.get(i) == null && FREE.compareAndSet(i, null, this)) {
          return;
        }
      }
    }
    ChunkBufferPool.recycle(decoded);
    ChunkBufferPool.recycle(compressed);
    chunk = null;
    decoded = null;
    compressed = null;
  }

  /** Moves to an encoded position (see {@link SSTableDescriptor#encodePosition}). */
  void seek(long position) {
    long offset = SSTableDescriptor.chunkOffset(position);
    if (offset != chunkOffset) {
      load(offset);
    }
    pos = SSTableDescriptor.inChunk(position);
    if (pos > chunkLength) {
      throw corrupt(offset, "position " + pos + " beyond chunk length " + chunkLength);
    }
  }

  long position() {
    if (pos == chunkLength && chunkOffset >= 0) {
      return SSTableDescriptor.encodePosition(nextChunkOffset, 0);
    }
    return SSTableDescriptor.encodePosition(chunkOffset, pos);
  }

  /** True when no byte is left in the file. */
  boolean atEnd() {
    return pos == chunkLength && (chunkOffset < 0 ? fileLength <= ChunkedFileWriter.HEADER_SIZE : nextChunkOffset >= fileLength);
  }

  private void load(long offset) {
    if (offset < ChunkedFileWriter.HEADER_SIZE || offset + ChunkedFileWriter.CHUNK_OVERHEAD > fileLength) {
      throw corrupt(offset, "chunk offset outside the file (length " + fileLength + ")");
    }
    if (cache != null) {
      ChunkCache.Entry cached = cache.get(cacheId, offset);
      if (cached != null) {
        chunk = cached.data(); // read in place: no copy of the chunk per hit
        chunkOffset = offset;
        chunkLength = cached.data().length;
        decodedTo = chunkLength;
        nextChunkOffset = offset + ChunkedFileWriter.CHUNK_OVERHEAD + cached.storedLength();
        pos = 0;
        return;
      }
    }
    try {
      readFile(compressed, 0, 8, offset);
      int uncompressed = bigEndianInt(compressed, 0);
      int length = bigEndianInt(compressed, 4);
      chunk = decoded;
      if (uncompressed <= 0 || uncompressed > chunk.length || length < 0
          || length > compressed.length - ChunkedFileWriter.CHUNK_OVERHEAD
          || offset + ChunkedFileWriter.CHUNK_OVERHEAD + length > fileLength) {
        throw corrupt(offset, "bad chunk lengths " + uncompressed + "/" + length + " (damaged or truncated file)");
      }
      readFile(compressed, 8, length + 4, offset + 8);
      int stored = bigEndianInt(compressed, 8 + length);
      int actual = Checksums.crc32c(compressed, 0, 8 + length);
      if (stored != actual) {
        throw corrupt(offset, "checksum failed (stored " + Integer.toHexString(stored) + ", computed "
            + Integer.toHexString(actual) + "; hardware problem?)");
      }
      chunkOffset = offset;
      chunkLength = uncompressed;
      nextChunkOffset = offset + ChunkedFileWriter.CHUNK_OVERHEAD + length;
      pos = 0;
      storedLength = length;
      decodeState = 0;
      decodedTo = 0;
      if (cache != null && populateCache && cache.admits(cacheId, offset, uncompressed)) {
        // decoded whole into an array of its own that the cache takes: no copy of the chunk
        chunk = new byte[uncompressed];
        decodeTo(uncompressed);
        cache.adopt(cacheId, offset, chunk, length);
      } else {
        decodeTo(lazyDecode ? 0 : uncompressed);
      }
    } catch (IOException e) {
      throw new StorageException("cannot read " + path + " at offset " + offset + ": " + e, e);
    }
  }

  /** Bytes decoded past what a read asks for: each resume of the decoder costs a call. */
  private static final int DECODE_AHEAD = 256;

  /** Decodes the loaded chunk up to at least {@code target} (and a little beyond). */
  private void decodeTo(int target) {
    int until = target >= chunkLength ? chunkLength : Math.min(chunkLength, target + DECODE_AHEAD);
    try {
      decodeState = compressor.decompressPart(compressed, 8, storedLength, chunk, 0, chunkLength, decodeState, until);
    } catch (IllegalArgumentException e) {
      throw corrupt(chunkOffset, e.getMessage());
    }
    decodedTo = (int) decodeState;
  }

  /**
   * True if the loaded chunk holds {@code n} more bytes from {@code pos}; decodes them first
   * when needed. False when the chunk ends before them (the caller reads across chunks).
   */
  private boolean have(int n) {
    if (decodedTo - pos >= n) {
      return true;
    }
    if (chunkLength - pos < n || chunk == null) {
      return false;
    }
    decodeTo(pos + n);
    return true;
  }

  private StorageException corrupt(long offset, String what) {
    chunkOffset = -1;
    return new StorageException("corrupt SSTable file " + path + " at offset " + offset + ": " + what);
  }

  private static final java.lang.invoke.VarHandle INT =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.BIG_ENDIAN);

  private static final java.lang.invoke.VarHandle LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

  private static int bigEndianInt(byte[] b, int at) {
    return (int) INT.get(b, at);
  }

  /** Reads {@code length} bytes of the file at {@code offset} into {@code into[at..]}. */
  private void readFile(byte[] into, int at, int length, long offset) throws IOException {
    if (mapped != null) {
      if (offset + length > fileLength) {
        throw corrupt(offset, "truncated file (length " + fileLength + ")");
      }
      // absolute bulk get: no shared position, safe with concurrent readers
      mapped.get((int) offset, into, at, length);
      return;
    }
    ByteBuffer b;
    if (into == compressed) { // the reader's own buffer, wrapped once: no ByteBuffer per chunk read
      b = compressedView;
      if (b == null || b.array() != into) {
        b = compressedView = ByteBuffer.wrap(into);
      }
      b.limit(at + length).position(at);
    } else {
      b = ByteBuffer.wrap(into, at, length);
    }
    while (b.hasRemaining()) {
      int n = channel.read(b, offset);
      if (n < 0) {
        throw corrupt(offset, "truncated file (length " + fileLength + ")");
      }
      offset += n;
    }
  }

  private void ensure() {
    if (pos == chunkLength) {
      if (chunkOffset < 0) {
        load(ChunkedFileWriter.HEADER_SIZE);
      } else {
        if (nextChunkOffset >= fileLength) {
          throw new StorageException("unexpected end of " + path + " at offset " + nextChunkOffset);
        }
        load(nextChunkOffset);
      }
    }
  }

  @Override
  public int readByte() {
    ensure();
    if (pos >= decodedTo) {
      decodeTo(pos + 1);
    }
    return chunk[pos++] & 0xFF;
  }

  @Override
  public void readFully(byte[] into, int offset, int length) {
    while (length > 0) {
      ensure();
      int n = Math.min(length, chunkLength - pos);
      if (decodedTo - pos < n) {
        decodeTo(pos + n);
      }
      System.arraycopy(chunk, pos, into, offset, n);
      pos += n;
      offset += n;
      length -= n;
    }
  }

  @Override
  public void skip(long byteCount) {
    while (byteCount > 0) {
      ensure();
      int n = (int) Math.min(byteCount, chunkLength - pos);
      pos += n;
      byteCount -= n;
    }
  }

  /**
   * Consumes the Index.db entries that lie wholly in the loaded chunk, have a token below
   * {@code token} and no row index, at most {@code max}; returns how many. A point read walks
   * up to {@link SSTableDescriptor#SUMMARY_INTERVAL} entries from its summary position, and
   * reading each field by field (token, key length, skip, position, row-index count) was a fifth
   * of a stress read's CPU samples; here an entry costs a few array reads. Stops without
   * consuming at anything else (a token at or past {@code token}, a row index, a chunk boundary,
   * a varint it does not finish), which the caller then reads the ordinary, checked way.
   * Layout as {@code SSTableWriter} writes it: token (8 bytes), key (varint length + bytes),
   * data position (varlong), row-index block count (varint, 0 for a one-block partition).
   */
  int skipIndexEntriesBelow(long token, int max) {
    byte[] c = chunk;
    if (c == null) {
      return 0;
    }
    int end = chunkLength;
    int p = pos;
    int n = 0;
    while (n < max && end - p >= 11) { // the smallest entry: 8 + 1 + 1 + 1 bytes
      // a chunk the cache did not take is decoded only as far as the walk goes (a miss walks
      // ~8 entries, ~230 bytes, of a 4 KiB chunk): up to the token and key length here...
      if (p + 10 > decodedTo) {
        decodeTo(p + 10);
      }
      if ((long) LONG.get(c, p) >= token) {
        break;
      }
      int q = p + 8;
      int keyLength = c[q++];
      if (keyLength < 0) { // keys of 128 bytes and more: two varint bytes
        int b = c[q++];
        if (b < 0) {
          break;
        }
        keyLength = (keyLength & 0x7F) | b << 7;
      }
      q += keyLength;
      int limit = Math.min(end, q + 10);
      if (limit > decodedTo && decodedTo < end) { // ...then past the key, the position and the row count
        decodeTo(limit);
      }
      while (q < limit && c[q] < 0) {
        q++;
      }
      if (q >= limit - 1 || c[q + 1] != 0) { // position not finished here, or no byte left for the count, or a row index
        break;
      }
      p = q + 2;
      n++;
    }
    pos = p;
    return n;
  }

  /** Compares in place when the value lies in the loaded chunk (nearly always): no copy. */
  @Override
  public int compareLengthPrefixed(byte[] other, int maxLength) {
    int length = readLength(maxLength);
    if (have(length)) {
      int c = java.util.Arrays.compareUnsigned(chunk, pos, pos + length, other, 0, other.length);
      pos += length;
      return c;
    }
    return java.util.Arrays.compareUnsigned(readBytes(length), other);
  }

  /** Decoded in place when it lies in the loaded chunk, a recent name shared: no byte[] per cell's column name. */
  @Override
  public String readString() {
    int length = readLength(MAX_STRING_LENGTH);
    if (have(length)) {
      String s = io.cassette.storage.io.RecentStrings.decode(chunk, pos, length);
      pos += length;
      return s;
    }
    return new String(readBytes(length), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public int readInt() {
    if (have(4)) {
      int v = bigEndianInt(chunk, pos);
      pos += 4;
      return v;
    }
    return DataReader.super.readInt();
  }

  /*
   * The fixed and variable-length numbers below are read straight from the chunk when they
   * lie in it. DataReader's default methods are shared by every reader class (stream, array,
   * chunk), so their calls to readByte were megamorphic and not inlined: the index walk of a
   * point read spent its time there.
   */

  @Override
  public long readLong() {
    if (have(8)) {
      long v = (long) LONG.get(chunk, pos);
      pos += 8;
      return v;
    }
    return ((long) readInt() << 32) | (readInt() & 0xFFFFFFFFL);
  }

  @Override
  public long readVarLong() {
    if (have(10)) {
      byte[] c = chunk;
      int p = pos;
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = c[p++];
        result |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          pos = p;
          return result;
        }
      }
      throw new StorageException("malformed varint: longer than 10 bytes");
    }
    return DataReader.super.readVarLong(); // near a chunk's end: byte by byte, across chunks
  }

  @Override
  public int readVarInt() {
    long v = readVarLong();
    if (v > 0xFFFFFFFFL) {
      throw new StorageException("malformed varint: " + v + " (expected: <= 2^32-1)");
    }
    return (int) v;
  }

  @Override
  public byte[] readBytes(int length) {
    if (length == 0) {
      return io.cassette.storage.Bytes.EMPTY;
    }
    if (have(length)) {
      byte[] b = java.util.Arrays.copyOfRange(chunk, pos, pos + length);
      pos += length;
      return b;
    }
    return DataReader.super.readBytes(length);
  }
}
