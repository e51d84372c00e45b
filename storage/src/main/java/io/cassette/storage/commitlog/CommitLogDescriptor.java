package io.cassette.storage.commitlog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commit-log segment format. Do not change these values: they are on disk
 * (docs/format/commitlog.md).
 *
 * <pre>
 * file    := header record* [zero bytes or torn tail]
 * name    := "CommitLog-" version "-" segmentId ".log"
 * header  := magic:u32 "CLOG" | version:u16 | segmentId:i64 | crc32c(previous 14 bytes):u32
 * record  := length:u32 | crc32c(length bytes):u32 | payload[length] | crc32c(payload):u32
 * </pre>
 * A record with length 0 and length-crc 0 marks the clean end (never written, so the file
 * ends there or holds zeros). Any other checksum mismatch or a short record is a torn or
 * corrupt tail: replay logs the file and offset and skips the rest of that segment.
 * The payload is a serialized mutation ({@link MutationSerializer}).
 */
public final class CommitLogDescriptor {
  public static final int MAGIC = 0x434C4F47; // "CLOG"
  /** 2: cells may share their row's timestamp (PartitionSerializer's flag 8). */
  public static final int VERSION = 2;
  /** Segments from this version on are replayed (version 1 only lacks the flag). */
  public static final int MIN_READABLE_VERSION = 1;
  public static final int HEADER_SIZE = 4 + 2 + 8 + 4;
  public static final int RECORD_OVERHEAD = 4 + 4 + 4;
  /** Largest mutation accepted; bigger ones are rejected before anything is applied. */
  public static final int MAX_RECORD_LENGTH = 64 << 20;

  private static final Pattern NAME = Pattern.compile("CommitLog-(\\d+)-(\\d+)\\.log");

  private CommitLogDescriptor() {}

  public static String fileName(long segmentId) {
    return "CommitLog-" + VERSION + "-" + segmentId + ".log";
  }

  /** The segment id in a segment file name, or -1 if the name is not a segment's. */
  public static long segmentId(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return -1;
    }
    return Long.parseLong(m.group(2));
  }

  /** The format version in a segment file name, or -1 if the name is not a segment's. */
  public static int version(String fileName) {
    Matcher m = NAME.matcher(fileName);
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }
}
