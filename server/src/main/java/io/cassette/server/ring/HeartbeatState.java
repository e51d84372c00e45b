package io.cassette.server.ring;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * What a node tells its peers in each heartbeat answer (the cluster module carries it as
 * opaque bytes): its load and its CQL schema version, as gossip's LOAD and SCHEMA application
 * states do in Cassandra. Never used for metadata decisions: the load is for nodetool status
 * and the dashboard, the schema version for system.peers (drivers wait on it after DDL).
 *
 * <pre>
 * [8 bytes load: data bytes on disk, -1 unknown][8 + 8 bytes schema version, 0/0 unknown]
 * </pre>
 * Big-endian. A reader takes what is there: an empty or shorter state (an older node) reads as
 * unknown; a longer one (a newer node) has fields appended after these.
 */
record HeartbeatState(long load, UUID schemaVersion) {
  static final HeartbeatState UNKNOWN = new HeartbeatState(-1, null);
  private static final int LENGTH = 24;

  byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(LENGTH).putLong(load);
    if (schemaVersion != null) {
      b.putLong(schemaVersion.getMostSignificantBits()).putLong(schemaVersion.getLeastSignificantBits());
    }
    return b.array();
  }

  /** The state in {@code bytes}, or {@link #UNKNOWN} for null or empty. */
  static HeartbeatState decode(byte[] bytes) {
    if (bytes == null || bytes.length < Long.BYTES) {
      return UNKNOWN;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    long load = b.getLong();
    UUID version = null;
    if (b.remaining() >= 2 * Long.BYTES) {
      long msb = b.getLong();
      long lsb = b.getLong();
      version = msb == 0 && lsb == 0 ? null : new UUID(msb, lsb);
    }
    return new HeartbeatState(load, version);
  }
}
