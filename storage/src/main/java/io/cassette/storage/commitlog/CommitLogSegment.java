package io.cassette.storage.commitlog;

import io.cassette.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One commit-log file. Appends happen under the commit log's lock; {@link #sync()} may run
 * concurrently with appends (FileChannel.force does not block positional writes).
 * Tracks which tables have records in it, to know when it can be deleted.
 */
public final class CommitLogSegment {
  private final long id;
  private final Path path;
  private FileChannel channel;
  /** Bytes written (header included); only the commit log's lock changes it. */
  private volatile long length;
  private final Set<UUID> dirtyTables = ConcurrentHashMap.newKeySet();
  /** True once no more records go into it. */
  private volatile boolean sealed;

  private CommitLogSegment(long id, Path path, FileChannel channel, long length, boolean sealed) {
    this.id = id;
    this.path = path;
    this.channel = channel;
    this.length = length;
    this.sealed = sealed;
  }

  /** Creates a new segment file with its header, fsynced. */
  static CommitLogSegment create(Path dir, long id) {
    Path path = dir.resolve(CommitLogDescriptor.fileName(id));
    try {
      FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      ByteBuffer header = ByteBuffer.allocate(CommitLogDescriptor.HEADER_SIZE);
      header.putInt(CommitLogDescriptor.MAGIC).putShort((short) CommitLogDescriptor.VERSION).putLong(id);
      header.putInt(io.cassette.storage.io.Checksums.crc32c(header.array(), 0, 14));
      header.flip();
      while (header.hasRemaining()) {
        ch.write(header);
      }
      return new CommitLogSegment(id, path, ch, CommitLogDescriptor.HEADER_SIZE, false);
    } catch (IOException e) {
      throw new StorageException("cannot create commit-log segment " + path + ": " + e, e);
    }
  }

  /** A segment found at startup: read-only, already sealed, kept until its tables flush. */
  static CommitLogSegment existing(long id, Path path, long length) {
    return new CommitLogSegment(id, path, null, length, true);
  }

  /** Appends a whole record at the end. Requires: the commit log's lock held, not sealed. */
  void append(byte[] record, int length) {
    ByteBuffer buf = ByteBuffer.wrap(record, 0, length);
    long pos = this.length;
    try {
      while (buf.hasRemaining()) {
        pos += channel.write(buf, pos);
      }
    } catch (IOException e) {
      // Leave length unchanged: a partial record at the tail is skipped by replay.
      throw new StorageException("cannot write to commit-log segment " + path + " at offset "
          + this.length + ": " + e, e);
    }
    this.length = pos;
  }

  void sync() {
    FileChannel ch = channel;
    if (ch == null) {
      return;
    }
    try {
      ch.force(false);
    } catch (IOException e) {
      throw new StorageException("cannot fsync commit-log segment " + path + ": " + e, e);
    }
  }

  /** Stops appends; the file stays open until {@link #close()}. */
  void seal() {
    sealed = true;
  }

  void close() {
    FileChannel ch = channel;
    channel = null;
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        // Already synced or abandoned; nothing to recover.
      }
    }
  }

  void delete() {
    close();
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new StorageException("cannot delete commit-log segment " + path + ": " + e, e);
    }
  }

  public void markDirty(UUID table) {
    dirtyTables.add(table);
  }

  public long id() {
    return id;
  }

  public Path path() {
    return path;
  }

  public long length() {
    return length;
  }

  public boolean isSealed() {
    return sealed;
  }

  public Set<UUID> dirtyTables() {
    return dirtyTables;
  }

  /** The position just past the last record. */
  public CommitLogPosition end() {
    return new CommitLogPosition(id, length);
  }
}
