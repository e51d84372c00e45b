package io.cassette.storage.sstable;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import io.cassette.storage.io.Compressor;
import io.cassette.storage.io.DataWriter;
import io.cassette.storage.io.Throttle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes a stream as compressed, checksummed chunks (layout in {@link SSTableDescriptor}).
 * {@link #position()} names the next byte's place for index entries. Not thread-safe.
 */
final class ChunkedFileWriter implements DataWriter, AutoCloseable {
  static final int HEADER_SIZE = 16;
  static final int CHUNK_OVERHEAD = 12;

  private final Path path;
  private final FileChannel channel;
  private final Compressor compressor;
  private final Throttle throttle;
  private final byte[] chunk;
  private int chunkLength;
  private byte[] compressed;
  private long fileOffset;
  private long uncompressedLength;

  ChunkedFileWriter(Path path, int magic, Compressor compressor, int chunkSize, Throttle throttle) {
    this.path = path;
    this.compressor = compressor;
    this.throttle = throttle;
    this.chunk = new byte[chunkSize];
    this.compressed = new byte[CHUNK_OVERHEAD + compressor.maxCompressedLength(chunkSize)];
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
      ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE);
      h.putInt(magic).putShort((short) SSTableDescriptor.FORMAT_VERSION).put((byte) compressor.id())
          .put((byte) 0).putInt(chunkSize);
      h.putInt(Checksums.crc32c(h.array(), 0, 12));
      h.flip();
      writeFully(h);
    } catch (IOException e) {
      throw new StorageException("cannot create " + path + ": " + e, e);
    }
  }

  private void writeFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      fileOffset += channel.write(b);
    }
  }

  /** The position of the next byte written. */
  long position() {
    return SSTableDescriptor.encodePosition(fileOffset, chunkLength);
  }

  @Override
  public void writeByte(int b) {
    chunk[chunkLength++] = (byte) b;
    if (chunkLength == chunk.length) {
      flushChunk();
    }
  }

  @Override
  public void writeBytes(byte[] bytes, int offset, int length) {
    while (length > 0) {
      int n = Math.min(length, chunk.length - chunkLength);
      System.arraycopy(bytes, offset, chunk, chunkLength, n);
      chunkLength += n;
      offset += n;
      length -= n;
      if (chunkLength == chunk.length) {
        flushChunk();
      }
    }
  }

  private void flushChunk() {
    if (chunkLength == 0) {
      return;
    }
    int n = compressor.compress(chunk, 0, chunkLength, compressed, 8);
    ByteBuffer.wrap(compressed, 0, 8).putInt(chunkLength).putInt(n);
    int crc = Checksums.crc32c(compressed, 0, 8 + n);
    ByteBuffer.wrap(compressed, 8 + n, 4).putInt(crc);
    try {
      writeFully(ByteBuffer.wrap(compressed, 0, CHUNK_OVERHEAD + n));
    } catch (IOException e) {
      throw new StorageException("cannot write " + path + " at offset " + fileOffset + ": " + e, e);
    }
    uncompressedLength += chunkLength;
    chunkLength = 0;
    if (throttle != null) {
      throttle.acquire(CHUNK_OVERHEAD + n);
    }
  }

  /** Writes the last chunk and fsyncs; returns the file length. */
  long finish() {
    flushChunk();
    try {
      channel.force(true);
    } catch (IOException e) {
      throw new StorageException("cannot fsync " + path + ": " + e, e);
    }
    return fileOffset;
  }

  long uncompressedLength() {
    return uncompressedLength + chunkLength;
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new StorageException("cannot close " + path + ": " + e, e);
    }
  }
}
