package io.cassette.storage.commitlog;

import io.cassette.storage.io.FileSync;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file of zeros kept in the commit-log directory so that the records a periodic-mode
 * writer has already acknowledged can still reach the file when the disk fills: the first
 * failed write deletes it and writes the buffer again into the space it gave back. While it
 * is gone the commit log refuses writes; it is made again (the test that space has returned)
 * before writes resume. Not a segment: replay ignores its name. Guarded by the commit log's lock.
 */
final class CommitLogReserve {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLogReserve.class);
  static final String FILE_NAME = "CommitLog.reserve";
  /**
   * Eight write buffers: the pending buffer, a new segment's header, and room for the
   * file-system metadata those writes need, even if a flush takes some of it first.
   */
  static final int BYTES = 8 * CommitLogSegment.WRITE_BUFFER_BYTES;

  private final Path path;
  private boolean present;

  CommitLogReserve(Path directory) {
    this.path = directory.resolve(FILE_NAME);
  }

  /** True if the reserve is on disk at its full size; makes it if not. False if there is no room. */
  boolean ensure() {
    if (present) {
      return true;
    }
    try {
      if (Files.exists(path) && Files.size(path) == BYTES) {
        present = true;
        return true;
      }
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        long written = 0;
        while (written < BYTES) {
          zeros.clear();
          written += ch.write(zeros, written);
        }
        ch.force(true); // allocated blocks, not a promise of them
      }
      FileSync.syncDirectory(path.getParent());
      present = true;
      return true;
    } catch (IOException e) {
      LOG.debug("cannot make the commit-log reserve {}: {}", path, e.toString());
      deleteQuietly();
      return false;
    }
  }

  /** Deletes the reserve, giving its space back; false if there was none to give. */
  boolean release() {
    if (!present) {
      return false;
    }
    present = false;
    deleteQuietly();
    FileSync.syncDirectory(path.getParent());
    LOG.warn("commit log: the disk is full; released the {} KiB reserve to write the records already acknowledged",
        BYTES / 1024);
    return true;
  }

  boolean isPresent() {
    return present;
  }

  private void deleteQuietly() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.warn("cannot delete the commit-log reserve {}: {}", path, e.toString());
    }
  }
}
