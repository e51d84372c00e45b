package io.cassette.storage.sstable;

/**
 * The layout of an SSTable's Digest.db: one fixed-size entry per partition, in the Index's
 * order, holding the partition's {@link io.cassette.storage.partition.PartitionDigest} when it
 * can be computed once (the partition is
 * {@link io.cassette.storage.partition.PartitionDigest#timeless timeless}). Repair's validation
 * reads these instead of the partitions; see docs/format/sstable.md. Do not change the
 * constants: they are on disk.
 *
 * <pre>
 * Digest.db := header block*
 *   header := magic:u32 "CSTG" | version:u16 | 0:u16 | blockEntries:u32 | crc32c(the previous 12 bytes):u32
 *   block  := entry{blockEntries; the last block 1..blockEntries} | crc32c(the block's entries):u32
 *   entry  := token:i64 | digestHigh:i64 | digestLow:i64 | flags:u8 (1: no digest) indexPosition:u56
 * </pre>
 * All integers big-endian. {@code indexPosition} is the partition's entry in Index.db (an
 * encoded position, see {@link SSTableDescriptor#encodePosition}), so a reader can find its
 * key. The number of entries is Meta.db's partition count; a file of any other length is
 * refused. The file is optional: an SSTable written before it existed has none.
 */
final class DigestFile {
  static final int MAGIC = 0x43535447; // "CSTG"
  static final int VERSION = 1;
  static final int HEADER_BYTES = 16;
  static final int ENTRY_BYTES = 32;
  /** Entries per checksummed block: 8 KiB, read whole. */
  static final int BLOCK_ENTRIES = 256;
  static final int BLOCK_CRC_BYTES = 4;
  /** In an entry's last long: the partition has no stored digest (compute it from the partition). */
  static final long NO_DIGEST = 1L << 56;
  static final long POSITION_MASK = NO_DIGEST - 1;

  private DigestFile() {}

  /** The length of a complete file of {@code entries} entries. */
  static long length(long entries) {
    long blocks = (entries + BLOCK_ENTRIES - 1) / BLOCK_ENTRIES;
    return HEADER_BYTES + entries * ENTRY_BYTES + blocks * BLOCK_CRC_BYTES;
  }

  /** Where block {@code b} starts in the file. */
  static long blockOffset(long b) {
    return HEADER_BYTES + b * ((long) BLOCK_ENTRIES * ENTRY_BYTES + BLOCK_CRC_BYTES);
  }
}
