package io.cassette.coordinator.ring.hints;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends records to a new {@link RecordFile}. With no buffer, appends reach the operating
 * system at once (they survive the process being killed); with one, they are gathered in
 * memory and written when it fills, at {@link #flush()} and at {@link #sync()} (a write
 * system call per 64 KiB instead of per record: ~40-70 us each on this loaded machine). Either
 * way {@link #sync()} makes them durable, so the caller chooses how often flash is asked to
 * write. Not thread-safe: the owner serialises calls, except {@link #force()}, which any thread may make.
 */
public final class RecordWriter implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final ByteBuffer buffer;
  private long size;
  private boolean dirty;
  /** Set by {@link #close()} once what was appended is fsynced, before the channel closes. */
  private volatile boolean syncedAtClose;

  /** Creates {@code path} (it must not exist) and writes the header; appends are written through. */
  public RecordWriter(Path path, int magic) {
    this(path, magic, 0);
  }

  /**
   * Creates {@code path} (it must not exist) and writes the header.
   *
   * @param bufferBytes appends are gathered in memory up to this many bytes (0: written through)
   */
  public RecordWriter(Path path, int magic, int bufferBytes) {
    this.path = path;
    this.buffer = bufferBytes > 0 ? ByteBuffer.allocate(bufferBytes) : null;
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      ByteBuffer header = ByteBuffer.allocate(RecordFile.HEADER_BYTES);
      header.putInt(magic).put((byte) RecordFile.VERSION);
      header.putInt(Checksums.crc32c(header.array(), 0, 5));
      header.flip();
      write(header);
    } catch (IOException e) {
      throw new StorageException("cannot create " + path + ": " + e, e);
    }
    size = RecordFile.HEADER_BYTES;
    dirty = true;
  }

  /** Appends one record; returns the bytes it takes in the file. */
  public int append(byte[] payload) {
    int length = payload.length + RecordFile.RECORD_OVERHEAD;
    try {
      if (buffer != null && length <= buffer.capacity()) {
        if (buffer.remaining() < length) {
          flush();
        }
        int at = buffer.position();
        buffer.putInt(payload.length);
        buffer.putInt(Checksums.crc32c(buffer.array(), at, 4));
        buffer.put(payload);
        buffer.putInt(Checksums.crc32c(payload, 0, payload.length));
      } else {
        flush();
        ByteBuffer b = ByteBuffer.allocate(length);
        b.putInt(payload.length);
        b.putInt(Checksums.crc32c(b.array(), 0, 4));
        b.put(payload);
        b.putInt(Checksums.crc32c(payload, 0, payload.length));
        b.flip();
        write(b);
      }
    } catch (IOException e) {
      throw new StorageException("cannot append to " + path + ": " + e, e);
    }
    size += length;
    dirty = true;
    return length;
  }

  /** Writes the gathered appends to the operating system (no fsync). */
  public void flush() throws IOException {
    if (buffer != null && buffer.position() > 0) {
      buffer.flip();
      try {
        write(buffer);
      } finally {
        buffer.clear();
      }
    }
  }

  private void write(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }

  /** Fsyncs what was appended since the last call (nothing when nothing was). */
  public void sync() {
    if (!dirty) {
      return;
    }
    try {
      flush();
      channel.force(false);
    } catch (IOException e) {
      throw new StorageException("cannot sync " + path + ": " + e, e);
    }
    dirty = false;
  }

  /**
   * Fsyncs what reached the operating system, from any thread, alongside the owner's appends
   * (FileChannel.force is thread-safe): for an unbuffered writer, every append that returned
   * before this call. A writer closed meanwhile was fsynced by {@link #close()}.
   */
  public void force() {
    try {
      channel.force(false);
    } catch (java.nio.channels.ClosedChannelException e) {
      if (!syncedAtClose) {
        throw new StorageException("cannot sync " + path + ": closed before its appends were synced", e);
      }
    } catch (IOException e) {
      throw new StorageException("cannot sync " + path + ": " + e, e);
    }
  }

  public long size() {
    return size;
  }

  public Path path() {
    return path;
  }

  /** Syncs and closes. */
  @Override
  public void close() {
    try {
      sync();
      syncedAtClose = true;
    } finally {
      try {
        channel.close();
      } catch (IOException e) {
        // already synced; nothing more can be lost
      }
    }
  }
}
