package io.cassette.coordinator.ring.hints;

/**
 * The layout of Cassette's small append-only record files (hints, batch log). Do not change
 * these values: they are on disk.
 *
 * <pre>
 * file   := header record*
 * header := magic:u32 version:u8 crc32c(magic, version):i32                (9 bytes)
 * record := length:i32 crc32c(length):i32 payload[length] crc32c(payload):i32
 * </pre>
 *
 * A record is whole only when both checksums match. A reader stops at the first record that
 * is not (a torn tail after a crash, or damage) and never returns a part of one: what follows
 * a bad record in that file is not read. Files are only appended to; a file is never written
 * again after it is closed (after a restart, writing starts in a new file).
 */
public final class RecordFile {
  /** 'CSHT': a hints file. */
  public static final int HINTS_MAGIC = 0x43534854;
  /** 'CSBL': a batch log segment. */
  public static final int BATCHLOG_MAGIC = 0x4353424c;
  public static final int VERSION = 1;
  public static final int HEADER_BYTES = 9;
  /** Length and its checksum before, payload checksum after. */
  public static final int RECORD_OVERHEAD = 12;
  /** A length past this is garbage, not a record (the internode message limit is far below). */
  public static final int MAX_RECORD_BYTES = 64 << 20;

  private RecordFile() {}
}
