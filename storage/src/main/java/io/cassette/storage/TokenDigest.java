package io.cassette.storage;

/**
 * One partition's content digest for repair's Merkle trees ({@link Table#digests}): its token
 * and the high 64 bits of its {@link io.cassette.storage.partition.PartitionDigest}, as Digest.db
 * (version 2) stores them; {@code low} is 0 (kept so repair's trees and messages keep their shape).
 *
 * @param stored true when read from the SSTable's Digest.db, false when computed from the partition
 */
public record TokenDigest(long token, long high, long low, boolean stored) {}
