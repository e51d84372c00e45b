package io.cassette.lab.ring;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Where the lab's nodes live and how they are cut apart: each node has an address, a command
 * prefix to run it there, and partitions drop the traffic between groups of nodes (never the
 * lab's own client traffic to them).
 */
public interface LabNetwork extends AutoCloseable {
  /** Node {@code i}'s address (1-based). */
  String address(int i);

  /** Prefixed to a node's command line (e.g. {@code ip netns exec NS}); empty for none. */
  List<String> wrap(int i);

  /** Whether {@link #cut} works here (nft and root). */
  boolean canPartition();

  /** Whether this machine can cut nodes apart at all: root, and nftables' {@code nft} installed. */
  static boolean partitionsAvailable() {
    return "root".equals(System.getProperty("user.name")) && Shell.tryRun("nft", "--version") != null;
  }

  /**
   * Drops traffic from the nodes of {@code from} to the nodes of {@code to}; with
   * {@code bothWays} also back. Replaces any earlier cut.
   */
  void cut(Set<Integer> from, Set<Integer> to, boolean bothWays) throws IOException;

  /** Removes every cut. */
  void heal() throws IOException;

  /** Ports the nodes use: the same on every node when each has its own address. */
  Ports ports();

  String describe();

  @Override
  void close();

  /** A node's ports; 0 disables a door. */
  record Ports(int cql, int resp, int http, int storage, int metadata) {}
}
