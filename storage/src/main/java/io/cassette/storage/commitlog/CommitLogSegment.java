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
 * One commit-log file. Appends happen under the commit log's lock and are copied into a
 * write buffer that is written to the file in one call when it fills or when the commit log
 * says so ({@link #writeOut()}): one system call per many small records. {@link #sync()}
 * may run concurrently with appends (FileChannel.force does not block positional writes).
 * Tracks which tables have records in it, to know when it can be deleted.
 */
public final class CommitLogSegment {
  /** Records are gathered up to this many bytes before a write to the file. */
  static final int WRITE_BUFFER_BYTES = 128 * 1024;

  private final long id;
  private final Path path;
  private volatile FileChannel channel;
  /** Bytes appended (header included), buffered or not; only the commit log's lock changes it. */
  private volatile long length;
  /** Bytes already handed to the file; guarded by the commit log's lock. */
  private long fileLength;
  /** Bytes of the file covered by a successful fsync; guarded by the commit log's lock. */
  private long syncedLength;
  /** The commit log's byte count at the end of this segment's last record, set when sealed. */
  long sealedAtTarget = -1;
  /** End of the last record acknowledged before its fsync (periodic mode); never rolled back. */
  private long acknowledgedLength;
  /**
   * Appended records not yet written to the file (position: their end); null once sealed.
   * Direct, so a write hands it to the OS without the copy into a temporary direct buffer a
   * heap buffer costs (0.4 us of ~1.2 in a periodic-mode append, which writes every record).
   */
  private ByteBuffer buffer;
  private int buffered;
  private final Set<UUID> dirtyTables = ConcurrentHashMap.newKeySet();
  /** True once no more records go into it. */
  private volatile boolean sealed;

  private CommitLogSegment(long id, Path path, FileChannel channel, long length, boolean sealed) {
    this.id = id;
    this.path = path;
    this.channel = channel;
    this.length = length;
    this.fileLength = length;
    this.syncedLength = length;
    this.sealed = sealed;
    this.buffer = sealed ? null : ByteBuffer.allocateDirect(WRITE_BUFFER_BYTES);
  }

  /** Creates a new segment file with its header, fsynced. */
  static CommitLogSegment create(Path dir, long id) {
    Path path = dir.resolve(CommitLogDescriptor.fileName(id));
    FileChannel ch = null;
    try {
      if (simulateWriteFailure) {
        throw new IOException("No space left on device (simulated)");
      }
      ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      ByteBuffer header = ByteBuffer.allocate(CommitLogDescriptor.HEADER_SIZE);
      header.putInt(CommitLogDescriptor.MAGIC).putShort((short) CommitLogDescriptor.VERSION).putLong(id);
      header.putInt(io.cassette.storage.io.Checksums.crc32c(header.array(), 0, 14));
      header.flip();
      while (header.hasRemaining()) {
        ch.write(header);
      }
      return new CommitLogSegment(id, path, ch, CommitLogDescriptor.HEADER_SIZE, false);
    } catch (IOException e) {
      // No half-made segment is left behind (a disk full is the likely cause).
      try {
        if (ch != null) {
          ch.close();
          Files.deleteIfExists(path);
        }
      } catch (IOException ignored) {
        // nothing more to give back
      }
      throw new StorageException("cannot create commit-log segment " + path + ": " + e, e);
    }
  }

  /** A segment found at startup: read-only, already sealed, kept until its tables flush. */
  static CommitLogSegment existing(long id, Path path, long length) {
    return new CommitLogSegment(id, path, null, length, true);
  }

  /**
   * Appends a whole record at the end (buffered). Requires: the commit log's lock held, not
   * sealed. Throws without appending anything if earlier buffered records cannot be written.
   */
  void append(byte[] record, int length) {
    if (buffered + length > buffer.capacity()) {
      writeOut();
    }
    if (length > buffer.capacity()) {
      write(ByteBuffer.wrap(record, 0, length));
    } else {
      buffer.put(buffered, record, 0, length);
      buffered += length;
    }
    this.length += length;
  }

  /** True if appended records wait in the buffer. Requires: the commit log's lock held. */
  boolean hasBuffered() {
    return buffered > 0;
  }

  /** Writes buffered records to the file (not fsynced). Requires: the commit log's lock held. */
  void writeOut() {
    if (buffered > 0) {
      try {
        write(buffer.limit(buffered).position(0));
      } finally {
        buffer.clear(); // appends put at absolute indexes below the capacity
      }
      buffered = 0;
    }
  }

  /** Writes {@code buf} from its position to its limit at the file's end (the position moves). */
  private void write(ByteBuffer buf) {
    int offset = buf.position();
    long pos = fileLength;
    try {
      if (simulateWriteFailure) {
        throw new IOException("No space left on device (simulated)");
      }
      try {
        while (buf.hasRemaining()) {
          pos += channel.write(buf, pos);
        }
      } catch (java.nio.channels.ClosedChannelException e) {
        // An interrupt of some thread closed the channel (NIO does that): reopen, rewrite.
        reopen();
        boolean interrupted = Thread.interrupted();
        try {
          buf.position(offset);
          pos = fileLength;
          while (buf.hasRemaining()) {
            pos += channel.write(buf, pos);
          }
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      }
    } catch (IOException e) {
      // fileLength unchanged: the bytes are written again from there on the next attempt,
      // and a partial record at the tail is skipped by replay.
      throw new StorageException("cannot write to commit-log segment " + path + " at offset "
          + fileLength + ": " + e, e);
    }
    fileLength = pos;
  }

  /** Tests only: extra time each fsync takes, to imitate an SD card stalling. */
  public static volatile long simulatedSyncStallNanos;
  /** Tests only: every write to a segment (and every new segment) fails as on a full disk. */
  public static volatile boolean simulateWriteFailure;
  /** Tests only: every fsync fails as after an I/O error. */
  public static volatile boolean simulateSyncFailure;

  void sync() {
    FileChannel ch = channel;
    if (ch == null) {
      return;
    }
    long stall = simulatedSyncStallNanos;
    if (stall > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(stall);
    }
    try {
      if (simulateSyncFailure) {
        throw new IOException("Input/output error (simulated)");
      }
      try {
        ch.force(false);
      } catch (java.nio.channels.ClosedChannelException e) {
        if (channel == null) {
          return; // closed by us: synced before closing
        }
        reopen(); // fsync syncs the file, whichever descriptor asks
        channel.force(false);
      }
    } catch (IOException e) {
      throw new StorageException("cannot fsync commit-log segment " + path + ": " + e, e);
    }
  }

  /** Bytes handed to the file so far. Requires: the commit log's lock held. */
  long fileLength() {
    return fileLength;
  }

  /** Records that an fsync covered the file up to {@code length}. Requires: the commit log's lock held. */
  void synced(long length) {
    syncedLength = Math.max(syncedLength, length);
  }

  /**
   * Batch mode, after a failed write or fsync: forgets the buffered records and cuts the file
   * back to what the last successful fsync covered, durably, so that records whose writers
   * are told "failed" are never replayed. Seals the segment: positions already handed out
   * are never reused, the next record goes to a new segment. Requires: the commit log's lock
   * held. Throws if the file cannot be cut (the records' fate is then unknown).
   */
  void rollBackToSynced() {
    long keep = Math.max(syncedLength, acknowledgedLength);
    if (keep > fileLength && buffered > 0) {
      // Records acknowledged in periodic mode just before a switch to batch: keep them.
      write(buffer.limit((int) Math.min(buffered, keep - fileLength)).position(0));
    }
    buffered = 0;
    if (fileLength > keep || (channel != null && fileSize() > keep)) {
      try {
        FileChannel ch = channel != null && channel.isOpen() ? channel
            : FileChannel.open(path, StandardOpenOption.WRITE);
        ch.truncate(keep);
        ch.force(true);
        if (ch != channel) {
          ch.close();
        }
      } catch (IOException e) {
        throw new StorageException("cannot cut commit-log segment " + path + " back to " + keep
            + " bytes: " + e, e);
      }
      fileLength = keep;
    }
    sealed = true;
    buffer = null;
  }

  /** Marks every record appended so far as acknowledged (periodic mode). Requires: the commit log's lock held. */
  void acknowledged() {
    acknowledgedLength = length;
  }

  private long fileSize() {
    try {
      return channel.size();
    } catch (IOException e) {
      return Long.MAX_VALUE; // unknown: cut it
    }
  }

  /** Replaces a channel that an interrupt closed. */
  private synchronized void reopen() throws IOException {
    FileChannel ch = channel;
    if (ch != null && !ch.isOpen()) {
      channel = FileChannel.open(path, StandardOpenOption.WRITE);
    }
  }

  /** Writes out the buffer and stops appends; the file stays open until {@link #close()}. */
  void seal() {
    if (buffer != null) {
      writeOut();
    }
    sealed = true;
    buffer = null;
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
