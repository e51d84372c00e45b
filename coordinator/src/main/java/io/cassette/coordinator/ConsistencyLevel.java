package io.cassette.coordinator;

/**
 * Cassandra's consistency levels with their native-protocol codes (do not change the codes:
 * drivers send them). How many replicas a level needs is {@link
 * io.cassette.coordinator.replication.ReplicaCount}'s business.
 */
public enum ConsistencyLevel {
  ANY(0x0000), ONE(0x0001), TWO(0x0002), THREE(0x0003), QUORUM(0x0004), ALL(0x0005),
  LOCAL_QUORUM(0x0006), EACH_QUORUM(0x0007), SERIAL(0x0008), LOCAL_SERIAL(0x0009),
  LOCAL_ONE(0x000A);

  /** The protocol code. */
  public final int code;

  /** {@code values()} copies its array on every call; this is read for every request. */
  private static final ConsistencyLevel[] ALL_LEVELS = values();

  ConsistencyLevel(int code) {
    this.code = code;
  }

  /** The level with protocol code {@code code}, or null when there is none. */
  public static ConsistencyLevel ofCode(int code) {
    for (ConsistencyLevel c : ALL_LEVELS) {
      if (c.code == code) {
        return c;
      }
    }
    return null;
  }

  /** SERIAL and LOCAL_SERIAL: the levels of Paxos (lightweight transactions, serial reads). */
  public boolean isSerial() {
    return this == SERIAL || this == LOCAL_SERIAL;
  }

  /** Levels that count only replicas in the coordinator's data centre. */
  public boolean isDatacenterLocal() {
    return this == LOCAL_ONE || this == LOCAL_QUORUM || this == LOCAL_SERIAL;
  }
}
