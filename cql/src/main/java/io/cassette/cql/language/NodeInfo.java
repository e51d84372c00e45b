package io.cassette.cql.language;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

/**
 * What system.local (and, with a ring, system.peers) reports about this node.
 *
 * @param tokens this node's ring tokens (as strings in system.local.tokens)
 * @param ring   the other nodes and this node's ring tokens; {@link RingView#SINGLE} alone
 */
public record NodeInfo(String clusterName, InetAddress listenAddress, InetAddress rpcAddress,
                       int rpcPort, UUID hostId, List<Long> tokens, String dataCenter, String rack,
                       String releaseVersion, RingView ring) {
  public static final String DEFAULT_DATA_CENTER = "datacenter1";
  public static final String DEFAULT_RACK = "rack1";
  public static final String RELEASE_VERSION = "5.0.4";

  public NodeInfo {
    tokens = List.copyOf(tokens);
    ring = ring == null ? RingView.SINGLE : ring;
  }

  /** A node without a ring. */
  public NodeInfo(String clusterName, InetAddress listenAddress, InetAddress rpcAddress, int rpcPort, UUID hostId,
                  List<Long> tokens, String dataCenter, String rack, String releaseVersion) {
    this(clusterName, listenAddress, rpcAddress, rpcPort, hostId, tokens, dataCenter, rack, releaseVersion,
        RingView.SINGLE);
  }

  /** The tokens system.local reports: the ring's when it has them. */
  public List<Long> localTokens() {
    List<Long> fromRing = ring.localTokens();
    return fromRing == null ? tokens : fromRing;
  }

  /** A single node on {@code address}:{@code rpcPort} owning {@code tokens}. */
  public static NodeInfo singleNode(String clusterName, InetAddress address, int rpcPort,
                                    UUID hostId, List<Long> tokens) {
    return new NodeInfo(clusterName, address, address, rpcPort, hostId, tokens,
        DEFAULT_DATA_CENTER, DEFAULT_RACK, RELEASE_VERSION);
  }
}
