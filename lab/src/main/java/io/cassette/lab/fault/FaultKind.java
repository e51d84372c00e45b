package io.cassette.lab.fault;

/** The faults the lab injects today. */
public enum FaultKind {
  /** {@code kill -9} a node, restart it on its data directory after the fault's duration. */
  KILL,
  /** {@code SIGSTOP} a node (a GC pause, a stalled SD card), {@code SIGCONT} after the duration. */
  PAUSE,
  /** nftables: one node cut off from the others both ways (a minority of one, the rest a majority). */
  PARTITION,
  /** nftables: one node's packets to the others dropped, theirs to it delivered. */
  PARTITION_ONE_WAY,
  /** nftables: a random minority (at most half, at least one) cut off from the majority. */
  PARTITION_HALVES,
  /**
   * nftables: two halves that cannot talk to each other, and one node (the bridge) that
   * reaches both (Jepsen's "bridge"); with three nodes, 1 and 2 cut apart with 3 in between.
   */
  PARTITION_BRIDGE;

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
