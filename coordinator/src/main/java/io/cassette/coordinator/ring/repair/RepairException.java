package io.cassette.coordinator.ring.repair;

/** A repair that cannot go on; the message is what nodetool prints after "failed with error". */
public final class RepairException extends RuntimeException {
  public RepairException(String message) {
    super(message, null, false, false);
  }
}
