package io.cassette.storage.index;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.FileSync;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Writes an index component to its temporary name, counting the position and the CRC32C of
 * every byte; {@link #finish} appends the checksum and the magic, fsyncs and renames. Not
 * thread-safe.
 */
final class IndexOutput implements AutoCloseable {
  private final Path tmp;
  private final Path target;
  private final FileOutputStream file;
  private final OutputStream out;
  private final CRC32C crc = new CRC32C();
  private final byte[] scratch = new byte[8];
  private long position;
  private boolean done;

  IndexOutput(Path tmp, Path target) {
    this.tmp = tmp;
    this.target = target;
    try {
      this.file = new FileOutputStream(tmp.toFile());
    } catch (IOException e) {
      throw new StorageException("cannot write index component " + tmp + ": " + e, e);
    }
    this.out = new BufferedOutputStream(file, 64 * 1024);
  }

  long position() {
    return position;
  }

  void write(byte[] b, int off, int len) {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw new StorageException("cannot write index component " + tmp + ": " + e, e);
    }
    crc.update(b, off, len);
    position += len;
  }

  void bytes(byte[] b) {
    write(b, 0, b.length);
  }

  void byte1(int v) {
    scratch[0] = (byte) v;
    write(scratch, 0, 1);
  }

  void int4(int v) {
    for (int i = 0; i < 4; i++) {
      scratch[i] = (byte) (v >>> (24 - 8 * i));
    }
    write(scratch, 0, 4);
  }

  void long8(long v) {
    for (int i = 0; i < 8; i++) {
      scratch[i] = (byte) (v >>> (56 - 8 * i));
    }
    write(scratch, 0, 8);
  }

  void vint(int v) {
    int n = 0;
    while ((v & ~0x7F) != 0) {
      scratch[n++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    scratch[n++] = (byte) v;
    write(scratch, 0, n);
  }

  void lengthPrefixed(byte[] b) {
    vint(b.length);
    bytes(b);
  }

  /** Appends crc and magic, fsyncs, and renames the file to its final name. */
  void finish() {
    seal();
    install();
  }

  /**
   * Appends crc and magic and fsyncs, leaving the file under its temporary name, for a caller
   * that renames it ({@link #install}) only once it knows the file is still wanted.
   */
  void seal() {
    int sum = (int) crc.getValue();
    int4(sum);
    int4(IndexComponent.MAGIC);
    try {
      out.flush();
      file.getFD().sync();
      out.close();
    } catch (IOException e) {
      throw new StorageException("cannot write index component " + tmp + ": " + e, e);
    }
    done = true;
  }

  /** Renames the sealed file to its final name (replacing any file there), durably. */
  void install() {
    FileSync.rename(tmp, target);
    FileSync.syncDirectory(target.getParent());
  }

  /** Deletes the sealed file instead of installing it. */
  void discard() {
    try {
      Files.deleteIfExists(tmp);
    } catch (IOException ignored) {
      // a .tmp left behind is deleted when the table next opens
    }
  }

  @Override
  public void close() {
    if (!done) {
      try {
        out.close();
      } catch (IOException ignored) {
        // the temporary file is deleted below
      }
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // left for the sweep
      }
    }
  }
}
