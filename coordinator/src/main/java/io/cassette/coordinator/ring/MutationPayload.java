package io.cassette.coordinator.ring;

import io.cassette.storage.PartitionUpdate;
import java.util.List;

/**
 * A mutation in the layout of a MUTATION_REQ payload ({@link RingCodec}'s {@code mutation}),
 * for the hint store and the batch log: what they keep on disk is exactly what they later send,
 * so there is one layout of a partition update on the wire and in those files (storage's
 * {@code PartitionSerializer}, tables named by keyspace and name).
 */
public final class MutationPayload {
  private MutationPayload() {}

  /** The MUTATION_REQ payload of {@code updates} (starts with the codec's version byte). */
  public static byte[] encode(List<PartitionUpdate> updates) {
    return RingCodec.mutation(updates);
  }

  /** The updates of a MUTATION_REQ payload; a {@code StorageException} when malformed. */
  public static List<PartitionUpdate> decode(byte[] payload) {
    return RingCodec.mutation(payload);
  }
}
