package io.cassette.storage.commitlog;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Checksums;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the records of one segment in order, verifying every checksum. A torn or corrupt
 * record ends the segment: it is logged with file and offset and the rest is skipped.
 */
public final class CommitLogReader {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLogReader.class);

  private CommitLogReader() {}

  /** Receives each valid record with the position just past it. */
  public interface RecordHandler {
    void record(CommitLogPosition end, byte[] payload);
  }

  /** What reading a segment found. {@code corruptAt} is -1 if the segment ended cleanly. */
  public record Result(int records, long validLength, long corruptAt, String problem) {}

  public static Result read(CommitLogSegment segment, RecordHandler handler) {
    var path = segment.path();
    long offset = 0;
    int records = 0;
    try (InputStream raw = Files.newInputStream(path);
         DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 64 * 1024))) {
      byte[] header = new byte[CommitLogDescriptor.HEADER_SIZE];
      try {
        in.readFully(header);
      } catch (EOFException e) {
        return torn(path, 0, 0, "segment shorter than its header");
      }
      java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(header);
      int magic = h.getInt();
      int version = h.getShort();
      long id = h.getLong();
      int crc = h.getInt();
      if (magic != CommitLogDescriptor.MAGIC || crc != Checksums.crc32c(header, 0, 14)) {
        return torn(path, 0, 0, "bad segment header (magic " + Integer.toHexString(magic) + ")");
      }
      if (version < CommitLogDescriptor.MIN_READABLE_VERSION || version > CommitLogDescriptor.VERSION
          || version != CommitLogDescriptor.version(path.getFileName().toString()) || id != segment.id()) {
        throw new StorageException("commit-log segment " + path + ": header says version " + version
            + " id " + id + " (expected: version " + CommitLogDescriptor.MIN_READABLE_VERSION + " to "
            + CommitLogDescriptor.VERSION + " as its name says, id " + segment.id() + ")");
      }
      offset = CommitLogDescriptor.HEADER_SIZE;
      byte[] lengthBytes = new byte[4];
      while (true) {
        int length;
        int lengthCrc;
        try {
          in.readFully(lengthBytes);
        } catch (EOFException e) {
          return new Result(records, offset, -1, null); // clean end
        }
        length = java.nio.ByteBuffer.wrap(lengthBytes).getInt();
        try {
          lengthCrc = in.readInt();
        } catch (EOFException e) {
          return torn(path, records, offset, "record header cut short");
        }
        if (length == 0 && lengthCrc == 0) {
          return new Result(records, offset, -1, null);
        }
        if (lengthCrc != Checksums.crc32c(lengthBytes, 0, 4)) {
          return torn(path, records, offset, "record length checksum mismatch");
        }
        if (length < 0 || length > CommitLogDescriptor.MAX_RECORD_LENGTH) {
          return torn(path, records, offset, "record length " + length + " out of range");
        }
        byte[] payload = new byte[length];
        int payloadCrc;
        try {
          in.readFully(payload);
          payloadCrc = in.readInt();
        } catch (EOFException e) {
          return torn(path, records, offset, "record of " + length + " bytes cut short");
        }
        if (payloadCrc != Checksums.crc32c(payload, 0, length)) {
          return torn(path, records, offset, "record payload checksum mismatch");
        }
        offset += CommitLogDescriptor.RECORD_OVERHEAD + length;
        records++;
        handler.record(new CommitLogPosition(segment.id(), offset), payload);
      }
    } catch (IOException e) {
      throw new StorageException("cannot read commit-log segment " + path + " at offset " + offset + ": " + e, e);
    }
  }

  private static Result torn(java.nio.file.Path path, int records, long offset, String problem) {
    LOG.warn("commit-log segment {}: {} at offset {}; skipping the rest of the segment ({} records replayed)",
        path, problem, offset, records);
    return new Result(records, offset, offset, problem);
  }
}
