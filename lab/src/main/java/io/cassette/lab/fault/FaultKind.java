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
  PARTITION_BRIDGE,
  /**
   * The node's disk filled: a balloon file written into its data directory until the file system
   * answers "no space left", removed after the duration. Only on the small file system of
   * {@code --disk-mb} (refused on a disk larger than {@link DiskBalloon#MAX_DISK_BYTES}).
   */
  DISK_FULL;

  /** Whether this fault cuts the network (needs nftables and root). */
  public boolean isPartition() {
    return name().startsWith("PARTITION");
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
