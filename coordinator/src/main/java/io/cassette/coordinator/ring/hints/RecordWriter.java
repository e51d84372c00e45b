package io.cassette.coordinator.ring.hints;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends records to a new {@link RecordFile}. Appends reach the operating system at once;
 * {@link #sync()} makes them durable, so the caller chooses how often flash is asked to
 * write (hints: every {@code hints_flush_period}, and when a file is closed). Not thread-safe:
 * the owner serialises calls.
 */
public final class RecordWriter implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private long size;
  private boolean dirty;

  /** Creates {@code path} (it must not exist) and writes the header. */
  public RecordWriter(Path path, int magic) {
    this.path = path;
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

  /** Appends one record; returns the bytes it took in the file. */
  public int append(byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(payload.length + RecordFile.RECORD_OVERHEAD);
    b.putInt(payload.length);
    b.putInt(Checksums.crc32c(b.array(), 0, 4));
    b.put(payload);
    b.putInt(Checksums.crc32c(payload, 0, payload.length));
    b.flip();
    try {
      write(b);
    } catch (IOException e) {
      throw new StorageException("cannot append to " + path + ": " + e, e);
    }
    size += b.capacity();
    dirty = true;
    return b.capacity();
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
      channel.force(false);
    } catch (IOException e) {
      throw new StorageException("cannot sync " + path + ": " + e, e);
    }
    dirty = false;
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
    } finally {
      try {
        channel.close();
      } catch (IOException e) {
        // already synced; nothing more can be lost
      }
    }
  }
}
