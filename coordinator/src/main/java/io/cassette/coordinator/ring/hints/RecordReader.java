package io.cassette.coordinator.ring.hints;

import io.cassette.storage.io.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the whole records of a {@link RecordFile} in order, from a given offset. Stops at the
 * end, or at the first record that is not whole: a torn tail (the file ends inside a record)
 * or a checksum that does not match; {@link #problem()} then says which, with the file and the
 * offset. A record is returned whole or not at all. Not thread-safe.
 */
public final class RecordReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RecordReader.class);

  private final Path path;
  private final FileChannel channel;
  private final long fileSize;
  private long position;
  private String problem;

  /**
   * @param from where to start: 0 for the first record, or an offset a previous reader
   *             returned from {@link #position()} after a whole record
   */
  public RecordReader(Path path, int magic, long from) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
    this.fileSize = channel.size();
    ByteBuffer header = ByteBuffer.allocate(RecordFile.HEADER_BYTES);
    if (!readFully(header, 0)) {
      problem = "truncated header (" + fileSize + " bytes)";
      position = fileSize;
      return;
    }
    int m = header.getInt(0);
    int v = header.get(4);
    if (header.getInt(5) != Checksums.crc32c(header.array(), 0, 5)) {
      problem = "header checksum failed";
    } else if (m != magic) {
      problem = "not this kind of file (magic " + Integer.toHexString(m) + ", expected " + Integer.toHexString(magic) + ")";
    } else if (v != RecordFile.VERSION) {
      problem = "format version " + v + " is not " + RecordFile.VERSION;
    }
    position = problem != null ? fileSize : Math.max(from, RecordFile.HEADER_BYTES);
    if (problem != null) {
      LOG.warn("{}: {}; its records are not read", path, problem);
    }
  }

  /** The next whole record, or null at the end or at a record that is not whole. */
  public byte[] next() throws IOException {
    if (problem != null || position >= fileSize) {
      return null;
    }
    ByteBuffer head = ByteBuffer.allocate(8);
    if (!readFully(head, position)) {
      return torn("the file ends inside a record's length");
    }
    int length = head.getInt(0);
    if (head.getInt(4) != Checksums.crc32c(head.array(), 0, 4) || length < 0 || length > RecordFile.MAX_RECORD_BYTES) {
      return torn(position + 8 >= fileSize ? "torn length" : "length checksum failed");
    }
    if (position + RecordFile.RECORD_OVERHEAD + length > fileSize) {
      return torn("the file ends inside a record of " + length + " bytes");
    }
    ByteBuffer body = ByteBuffer.allocate(length + 4);
    if (!readFully(body, position + 8)) {
      return torn("short read");
    }
    byte[] payload = new byte[length];
    body.get(0, payload);
    if (body.getInt(length) != Checksums.crc32c(payload, 0, length)) {
      boolean last = position + RecordFile.RECORD_OVERHEAD + length == fileSize;
      return torn(last ? "the last record's checksum failed (torn write)" : "record checksum failed (hardware problem?)");
    }
    position += RecordFile.RECORD_OVERHEAD + length;
    return payload;
  }

  private byte[] torn(String why) {
    problem = why + " at offset " + position;
    LOG.warn("{}: {}; the rest of the file ({} bytes) is skipped", path, problem, fileSize - position);
    return null;
  }

  private boolean readFully(ByteBuffer b, long at) throws IOException {
    long p = at;
    while (b.hasRemaining()) {
      int n = channel.read(b, p);
      if (n < 0) {
        return false;
      }
      p += n;
    }
    return true;
  }

  /** The offset after the last whole record returned. */
  public long position() {
    return position;
  }

  /** Why reading stopped before the end of the file, or null. */
  public String problem() {
    return problem;
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
