package io.cassette.coordinator.ring.repair;

import io.cassette.coordinator.ring.MutationPayload;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.StorageException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One batch of whole partitions streamed by repair (REPAIR_STREAM_REQ), with a checksum the
 * receiver verifies before it applies anything:
 * <pre>
 * version (1) | sequence (int) | body length (int) | CRC32C of body (int) | body
 * body := MUTATION_REQ layout of the partitions (MutationPayload): unfiltered, with timestamps and tombstones
 * </pre>
 * The frames under it carry their own CRCs; this one covers the batch end to end (from the
 * sender's encoder to the receiver's decoder), so a batch that arrives damaged is refused whole
 * and sent again, never half applied.
 */
final class StreamBatch {
  static final int VERSION = 1;
  private static final int HEADER_BYTES = 13;

  private StreamBatch() {}

  /** A batch whose bytes are not what was sent. */
  static final class CorruptBatchException extends StorageException {
    CorruptBatchException(String message) {
      super(message);
    }
  }

  static byte[] encode(int sequence, List<PartitionUpdate> partitions) {
    byte[] body = MutationPayload.encode(partitions);
    CRC32C crc = new CRC32C();
    crc.update(body, 0, body.length);
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + body.length);
    out.put((byte) VERSION).putInt(sequence).putInt(body.length).putInt((int) crc.getValue()).put(body);
    return out.array();
  }

  /** The sequence number of a batch (for the receiver's log), or -1 when too short to tell. */
  static int sequence(byte[] payload) {
    return payload.length >= HEADER_BYTES ? ByteBuffer.wrap(payload).getInt(1) : -1;
  }

  /**
   * The partitions of a batch, after checking its version, length and checksum.
   *
   * @throws CorruptBatchException when any of them is wrong (nothing may be applied then)
   */
  static List<PartitionUpdate> decode(byte[] payload) {
    if (payload.length < HEADER_BYTES) {
      throw new CorruptBatchException("repair stream batch truncated: " + payload.length + " bytes (expected: >= "
          + HEADER_BYTES + ")");
    }
    ByteBuffer in = ByteBuffer.wrap(payload);
    int version = in.get();
    if (version != VERSION) {
      throw new CorruptBatchException("repair stream batch version " + version + " (expected: " + VERSION + ")");
    }
    int sequence = in.getInt();
    int length = in.getInt();
    int expected = in.getInt();
    if (length != payload.length - HEADER_BYTES) {
      throw new CorruptBatchException("repair stream batch " + sequence + " " + (length < payload.length - HEADER_BYTES
          ? "extended" : "truncated") + ": body of " + (payload.length - HEADER_BYTES) + " bytes (expected: " + length
          + ")");
    }
    CRC32C crc = new CRC32C();
    crc.update(payload, HEADER_BYTES, length);
    if ((int) crc.getValue() != expected) {
      throw new CorruptBatchException(String.format("repair stream batch %d checksum failed: CRC32C %08x (expected: %08x)",
          sequence, (int) crc.getValue(), expected));
    }
    byte[] body = new byte[length];
    System.arraycopy(payload, HEADER_BYTES, body, 0, length);
    return MutationPayload.decode(body);
  }
}
