package io.cassette.coordinator.replication;

/**
 * Copies on the next {@code replicationFactor} distinct nodes of the ring, whatever their
 * data centre. Cassandra counts a data centre's factor as the whole factor here.
 */
public final class SimpleStrategy implements ReplicationStrategy {
  private final int replicationFactor;

  public SimpleStrategy(int replicationFactor) {
    if (replicationFactor < 0) {
      throw new IllegalArgumentException("Replication factor must be non-negative; found " + replicationFactor);
    }
    this.replicationFactor = replicationFactor;
  }

  @Override
  public int replicationFactor() {
    return replicationFactor;
  }

  @Override
  public int replicationFactor(String datacenter) {
    return replicationFactor;
  }

  @Override
  public String toString() {
    return "SimpleStrategy{replication_factor=" + replicationFactor + "}";
  }
}
