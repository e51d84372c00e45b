package io.cassette.coordinator.replication;

/**
 * Node-local data (the system keyspaces): one copy, on the node itself, so every
 * consistency level is met by the local node alone.
 */
public final class LocalStrategy implements ReplicationStrategy {
  public static final LocalStrategy INSTANCE = new LocalStrategy();

  private LocalStrategy() {}

  @Override
  public int replicationFactor() {
    return 1;
  }

  @Override
  public int replicationFactor(String datacenter) {
    return 1;
  }

  @Override
  public String toString() {
    return "LocalStrategy";
  }
}
