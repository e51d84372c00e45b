package io.cassette.lab.fault;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file that takes every free byte of a node's disk (the fault {@link FaultKind#DISK_FULL}),
 * deleted on close. Written in 1 MiB pieces until the file system refuses one; what is left
 * (less than a piece) is taken by single bytes, so the node's next write of any size fails.
 */
final class DiskBalloon implements AutoCloseable {
  /** A guard against filling a real disk: only small file systems made by the lab are filled. */
  static final long MAX_DISK_BYTES = 2L << 30;

  private final Path file;
  private final long bytes;
  private final long freeBefore;

  private DiskBalloon(Path file, long bytes, long freeBefore) {
    this.file = file;
    this.bytes = bytes;
    this.freeBefore = freeBefore;
  }

  static DiskBalloon fill(Path dataDir) throws IOException {
    FileStore store = Files.getFileStore(dataDir);
    if (store.getTotalSpace() > MAX_DISK_BYTES) {
      throw new IOException("disk-full needs --disk-mb (a small file system of the lab's): " + dataDir + " is on "
          + store.getTotalSpace() / (1 << 20) + " MB");
    }
    long free = store.getUsableSpace();
    Path file = dataDir.resolve("lab-disk-balloon");
    long written = 0;
    byte[] piece = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      int size = piece.length;
      while (size > 0) {
        try {
          out.write(piece, 0, size);
          out.flush();
          written += size;
        } catch (IOException full) {
          size = size == piece.length ? 4096 : size == 4096 ? 1 : 0;
        }
      }
    } catch (IOException closing) {
      // the close's own flush may fail on a full disk: what was written stays
    }
    return new DiskBalloon(file, written, free);
  }

  String describe() {
    return "disk filled (" + bytes / (1 << 20) + " MB balloon, " + freeBefore / (1 << 20) + " MB were free)";
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(file);
  }
}
