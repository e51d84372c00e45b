package io.cassette.cql.language;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

/**
 * The ring as system.local and system.peers report it: this node's tokens and internode
 * port, and every other node. A single node has no peers. Read on each query of those
 * tables, so an implementation returns its newest view without blocking.
 */
public interface RingView {
  /**
   * One node and its system.peers / system.peers_v2 columns; {@code schemaVersion} is the one
   * the node last reported (drivers wait for all to agree after DDL), null when not known yet
   * (then this node's own is reported).
   */
  record Peer(InetAddress peer, int peerPort, String dataCenter, String rack, UUID hostId,
              InetAddress nativeAddress, int nativePort, String releaseVersion, List<Long> tokens,
              UUID schemaVersion) {
    public Peer {
      tokens = List.copyOf(tokens);
    }

    /** A peer whose schema version is not known (this node's own is reported). */
    public Peer(InetAddress peer, int peerPort, String dataCenter, String rack, UUID hostId,
                InetAddress nativeAddress, int nativePort, String releaseVersion, List<Long> tokens) {
      this(peer, peerPort, dataCenter, rack, hostId, nativeAddress, nativePort, releaseVersion, tokens, null);
    }
  }

  /** This node's tokens, or null to report the ones {@link NodeInfo} was made with. */
  List<Long> localTokens();

  /** storage_port (system.local's listen_port and broadcast_port). */
  int storagePort();

  /** The other nodes of the ring. */
  List<Peer> peers();

  /** A node alone: no peers, storage port 7000. */
  RingView SINGLE = new RingView() {
    @Override
    public List<Long> localTokens() {
      return null;
    }

    @Override
    public int storagePort() {
      return 7000;
    }

    @Override
    public List<Peer> peers() {
      return List.of();
    }
  };
}
