package io.cassette.storage.sstable;

/**
 * The layout of an SSTable's Digest.db: one entry per partition, in the Index's order, holding
 * the partition's {@link io.cassette.storage.partition.PartitionDigest} (its high 64 bits) when
 * it can be computed once (the partition is
 * {@link io.cassette.storage.partition.PartitionDigest#timeless timeless}). Repair's validation
 * reads these instead of the partitions; see docs/format/sstable.md. Do not change the
 * constants: they are on disk.
 *
 * <pre>
 * Digest.db (version 2) := header block* directory
 *   header := magic:u32 "CSTG" | version:u16 | 0:u16 | blockEntries:u32 | crc32c(the previous 12 bytes):u32
 *   block  := firstIndexPosition:i64 | entry{blockEntries; the last block 1..blockEntries}
 *             | crc32c(the block's bytes before it):u32
 *   entry  := step:varlong ((indexPosition - the previous entry's) &lt;&lt; 1 | 1 if no digest; the
 *             block's first entry's difference is to firstIndexPosition, so 0) | digest:i64 (if any)
 *   directory := (firstToken:i64 | blockOffset:i64){one per block}
 * </pre>
 * All integers big-endian; varlong 7 bits a byte, low first. {@code indexPosition} is the
 * partition's entry in Index.db (an encoded position, see {@link SSTableDescriptor#encodePosition}),
 * which starts with the partition's token: the token is read there, not stored twice. An entry
 * takes 9 or 10 bytes with a digest (a step within an index chunk fits one byte), 1 or 2
 * without; version 1 took 32 (token, 128-bit digest, flags and position, fixed-size):
 *
 * <pre>
 * Digest.db (version 1) := header block1*
 *   block1 := entry1{blockEntries; the last block 1..blockEntries} | crc32c(the block's entries):u32
 *   entry1 := token:i64 | digestHigh:i64 | digestLow:i64 | flags:u8 (1: no digest) indexPosition:u56
 * </pre>
 * Version 1 files are still read (their low 64 digest bits ignored). The number of entries is
 * Meta.db's partition count; a file of the wrong length, a block that fails its checksum or a
 * directory that contradicts its blocks is refused. The file is optional: an SSTable written
 * before it existed has none.
 */
final class DigestFile {
  static final int MAGIC = 0x43535447; // "CSTG"
  static final int VERSION = 2;
  static final int VERSION_1 = 1;
  static final int HEADER_BYTES = 16;
  /** Entries per checksummed block. */
  static final int BLOCK_ENTRIES = 256;
  static final int BLOCK_CRC_BYTES = 4;
  /** Version 2: a block's bytes before its entries (its first index position). */
  static final int BLOCK_HEADER_BYTES = 8;
  /** Version 2: the most bytes an entry takes (a 10-byte varlong and a digest). */
  static final int MAX_ENTRY_BYTES = 10 + 8;
  /** Version 2: the most bytes a block takes. */
  static final int MAX_BLOCK_BYTES = BLOCK_HEADER_BYTES + BLOCK_ENTRIES * MAX_ENTRY_BYTES + BLOCK_CRC_BYTES;
  static final int DIRECTORY_ENTRY_BYTES = 16;
  /** Version 2: the low bit of an entry's step: the partition has no stored digest. */
  static final long STEP_NO_DIGEST = 1;

  /** Version 1: the fixed size of an entry. */
  static final int ENTRY_BYTES_V1 = 32;
  /** Version 1: in an entry's last long, the partition has no stored digest. */
  static final long NO_DIGEST_V1 = 1L << 56;
  static final long POSITION_MASK_V1 = NO_DIGEST_V1 - 1;

  private DigestFile() {}

  static long blocks(long entries) {
    return (entries + BLOCK_ENTRIES - 1) / BLOCK_ENTRIES;
  }

  /** Version 1: the length of a complete file of {@code entries} entries. */
  static long lengthV1(long entries) {
    return HEADER_BYTES + entries * ENTRY_BYTES_V1 + blocks(entries) * BLOCK_CRC_BYTES;
  }

  /** Version 1: where block {@code b} starts in the file. */
  static long blockOffsetV1(long b) {
    return HEADER_BYTES + b * ((long) BLOCK_ENTRIES * ENTRY_BYTES_V1 + BLOCK_CRC_BYTES);
  }
}
