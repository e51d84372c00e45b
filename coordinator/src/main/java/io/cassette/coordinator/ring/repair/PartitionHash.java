package io.cassette.coordinator.ring.repair;

import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.partition.PartitionSerializer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The 128-bit hash a partition adds to a {@link MerkleTree} leaf: the first 16 bytes of the
 * SHA-256 of its unfiltered form in storage's update layout (key, partition deletion, range
 * tombstones, rows with their liveness, deletions, cells, timestamps, TTLs and local deletion
 * times; {@code PartitionSerializer.writeUpdateBody}). Two replicas holding the same writes
 * produce the same bytes, so the same hash; any missed write or tombstone changes it. One per
 * validating thread (it reuses its buffer and digest); not thread-safe.
 */
final class PartitionHash {
  private final ByteArrayWriter buffer = new ByteArrayWriter(4096);
  private final MessageDigest sha256;
  /** The size in bytes of the last partition hashed (for the validation's byte count). */
  private int lastBytes;

  PartitionHash() {
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no SHA-256", e);
    }
  }

  /** Hashes {@code u}; returns {high, low}. */
  long[] hash(PartitionUpdate u) {
    buffer.reset();
    PartitionSerializer.writeUpdateBody(buffer, u);
    lastBytes = buffer.length();
    sha256.update(buffer.buffer(), 0, buffer.length());
    byte[] d = sha256.digest();
    return new long[] {longAt(d, 0), longAt(d, 8)};
  }

  int lastBytes() {
    return lastBytes;
  }

  private static long longAt(byte[] b, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[offset + i] & 0xFF);
    }
    return v;
  }
}
