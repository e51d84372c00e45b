package io.cassette.storage.io;

import io.cassette.storage.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Durable file operations: fsync of files and directories, atomic replace. */
public final class FileSync {
  private FileSync() {}

  /** Fsyncs a directory so that renames and creations inside it survive power loss. */
  public static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems refuse to open or sync directories; the rename is still atomic.
    }
  }

  /** Renames {@code from} onto {@code to} atomically (replacing it) and fsyncs the directory. */
  public static void renameDurably(Path from, Path to) {
    rename(from, to);
    syncDirectory(to.toAbsolutePath().getParent());
  }

  /** Renames atomically without syncing the directory (the caller syncs it once for several). */
  public static void rename(Path from, Path to) {
    try {
      try {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new StorageException("cannot rename " + from + " to " + to + ": " + e, e);
    }
  }

  /** Writes {@code bytes} to {@code target} via a temporary file, fsync and rename. */
  public static void writeAtomically(Path target, byte[] bytes) {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    } catch (IOException e) {
      throw new StorageException("cannot write " + tmp + ": " + e, e);
    }
    renameDurably(tmp, target);
  }
}
