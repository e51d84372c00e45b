package io.cassette.coordinator.ring;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.partition.PartitionSerializer;

/**
 * A message payload (or record) whose first byte is its format's version, shared by the ring's
 * codecs ({@link RingCodec}, {@code paxos.PaxosCodec}): a reader refuses any other version with
 * the format's name, so a node of another release is told apart from a corrupt payload.
 */
public final class VersionedPayload {
  private final int version;
  private final String name;

  /** @param name what the payload is, for errors ("ring payload", "paxos payload") */
  public VersionedPayload(int version, String name) {
    this.version = version;
    this.name = name;
  }

  /** A writer with the version byte written. */
  public ByteArrayWriter writer(int capacity) {
    ByteArrayWriter out = new ByteArrayWriter(capacity);
    out.writeByte(version);
    return out;
  }

  /** A reader past the version byte; throws if the payload is empty or of another version. */
  public DataReader reader(byte[] payload) {
    ByteArrayReader in = new ByteArrayReader(payload);
    int v = in.remaining() == 0 ? -1 : in.readByte();
    if (v != version) {
      throw new StorageException(name + " version " + v + " is not " + version);
    }
    return in;
  }

  /** A length-prefixed key or value, bounded as storage bounds a cell value. */
  public static byte[] bytes(DataReader in) {
    return in.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
  }
}
