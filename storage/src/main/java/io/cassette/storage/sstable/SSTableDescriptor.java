package io.cassette.storage.sstable;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names and layout of one SSTable's files; see docs/format/sstable.md. Do not change the
 * constants: they are on disk.
 *
 * <pre>
 * &lt;table dir&gt;/v1-&lt;generation&gt;-Data.db   partitions, in compressed checksummed chunks
 * &lt;table dir&gt;/v1-&lt;generation&gt;-Index.db  partition index, same chunk format
 * &lt;table dir&gt;/v1-&lt;generation&gt;-Meta.db   statistics, Bloom filter, index summary, crc
 * &lt;table dir&gt;/v1-&lt;generation&gt;-Digest.db each partition's content digest, for repair ({@link DigestFile});
 *                                   optional (older SSTables have none)
 *
 * chunked file := header chunk*
 *   header := magic:u32 | version:u16 | compressorId:u8 | 0:u8 | chunkLength:u32 | crc32c(12 bytes):u32
 *   (Index.db chunks are at most MAX_INDEX_CHUNK_LENGTH = 4 KiB)
 *   chunk  := uncompressedLength:u32 | compressedLength:u32 | bytes | crc32c(lengths + bytes):u32
 *   A position in the uncompressed stream is (fileOffsetOfChunk &lt;&lt; 20 | offsetInChunk).
 *
 * Data stream:
 *   partition := key:bytes flags:u8 [deletion if flags&amp;1] [rtCount:varint rangeTomb* if flags&amp;2]
 *                (rowLength:varint row)* 0:varint                    (row: PartitionSerializer)
 * Index stream:
 *   entry := token:i64 key:bytes dataPosition:varlong                 (in partition order)
 *            blockCount:varint (firstClustering:bytes rowPosition:varlong){blockCount}
 *   Row index: for a partition whose rows span more than ROW_INDEX_BLOCK_BYTES, the first
 *   clustering and position of each later block of rows (the first block starts at the
 *   partition's first row), so a slice starts reading at the block holding its start.
 * Meta.db:
 *   magic:u32 "CSTM" | version:u16 | stats | bloom | summary | crc32c(everything before):u32
 *   stats   := partitionCount:varlong minTimestamp:i64 maxTimestamp:i64 minLocalDeletionTime:i64
 *              maxLocalDeletionTime:i64 tombstoneCount:varlong firstKey:bytes lastKey:bytes
 *              commitLogUpperBound(segmentId:i64 offset:i64) dataLength:i64 indexLength:i64
 *              uncompressedLength:i64
 *   bloom   := hashCount:u8 wordCount:varint word:i64*
 *   summary := interval:varint count:varint (token:i64 key:bytes indexPosition:varlong)*
 * </pre>
 * Files are written under a {@code .tmp} suffix, fsynced, then renamed; Meta.db is renamed
 * last, so an SSTable without Meta.db is incomplete and deleted at open.
 */
public record SSTableDescriptor(Path directory, long generation) {
  /** The file-name scheme's version (names have not changed since); the content's is FORMAT_VERSION. */
  public static final String VERSION = "v1";
  /**
   * Written into every file's header and Meta.db. 2: a cell may share its row's timestamp
   * (PartitionSerializer's flag 8; 8 bytes less a cell). Versions from
   * MIN_READABLE_FORMAT_VERSION on are read; an older Cassette refuses a newer file by it.
   */
  public static final int FORMAT_VERSION = 2;
  public static final int MIN_READABLE_FORMAT_VERSION = 1;
  public static final int DATA_MAGIC = 0x43535444; // "CSTD"
  public static final int INDEX_MAGIC = 0x43535449; // "CSTI"
  public static final int META_MAGIC = 0x4353544D; // "CSTM"
  public static final String TMP_SUFFIX = ".tmp";
  /**
   * Index chunks are at most this long: a point read decompresses one index chunk to scan
   * at most {@link #SUMMARY_INTERVAL} entries, so a data-sized 16 KB chunk would waste work.
   */
  public static final int MAX_INDEX_CHUNK_LENGTH = 4 * 1024;
  /** Uncompressed bytes of rows per row-index block (Cassandra's column_index_size is 4-64 KB). */
  public static final int ROW_INDEX_BLOCK_BYTES = 16 * 1024;
  /** One index entry in this many is kept in the in-memory summary. */
  public static final int SUMMARY_INTERVAL = 128;

  private static final Pattern NAME = Pattern.compile("(v\\d+)-(\\d+)-(Data|Index|Meta|Digest)\\.db(\\.tmp)?");

  public enum Component { DATA("Data"), INDEX("Index"), META("Meta"), DIGEST("Digest");
    final String suffix;

    Component(String suffix) {
      this.suffix = suffix;
    }
  }

  public Path path(Component c) {
    return directory.resolve(VERSION + "-" + generation + "-" + c.suffix + ".db");
  }

  public Path tmpPath(Component c) {
    return directory.resolve(VERSION + "-" + generation + "-" + c.suffix + ".db" + TMP_SUFFIX);
  }

  /** Parsed name of an SSTable file, or null if {@code fileName} is not one. */
  public record Parsed(String version, long generation, Component component, boolean temporary) {}

  public static Parsed parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return null;
    }
    Component c = switch (m.group(3)) {
      case "Data" -> Component.DATA;
      case "Index" -> Component.INDEX;
      case "Digest" -> Component.DIGEST;
      default -> Component.META;
    };
    return new Parsed(m.group(1), Long.parseLong(m.group(2)), c, m.group(4) != null);
  }

  public static long encodePosition(long chunkOffset, int inChunk) {
    return chunkOffset << 20 | inChunk;
  }

  public static long chunkOffset(long position) {
    return position >>> 20;
  }

  public static int inChunk(long position) {
    return (int) (position & 0xFFFFF);
  }

  @Override
  public String toString() {
    return directory.resolve(VERSION + "-" + generation).toString();
  }
}
