package io.cassette.metadata;

import java.net.InetAddress;
import java.util.Objects;
import java.util.UUID;

/**
 * One node of the cluster as metadata knows it: identity, addresses, location, state.
 * Immutable; a change is a new Member in a new ClusterMetadata.
 *
 * @param hostId           the node's permanent identity (Cassandra's host id)
 * @param broadcastAddress the address peers and drivers use (system.peers' peer)
 * @param listenAddress    the address the node binds for internode traffic
 * @param nativePort       CQL native port (0 = disabled)
 * @param respPort         Redis port (0 = disabled)
 * @param storagePort      internode messaging port
 * @param dataCenter       as cassandra-rackdc.properties' dc
 * @param rack             as cassandra-rackdc.properties' rack
 * @param state            life-cycle state
 * @param releaseVersion   the Cassette/Cassandra release the node runs (system.peers' release_version)
 */
public record Member(UUID hostId, InetAddress broadcastAddress, InetAddress listenAddress,
                     int nativePort, int respPort, int storagePort,
                     String dataCenter, String rack, NodeState state, String releaseVersion) {
    public Member {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(broadcastAddress, "broadcastAddress");
        Objects.requireNonNull(listenAddress, "listenAddress");
        Objects.requireNonNull(dataCenter, "dataCenter");
        Objects.requireNonNull(rack, "rack");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(releaseVersion, "releaseVersion");
        checkPort("nativePort", nativePort);
        checkPort("respPort", respPort);
        checkPort("storagePort", storagePort);
    }

    private static void checkPort(String name, int port) {
        if (port < 0 || port > 65535) throw new IllegalArgumentException(name + ": " + port + " (expected: 0..65535)");
    }

    public Member withState(NodeState newState) {
        return new Member(hostId, broadcastAddress, listenAddress, nativePort, respPort, storagePort,
                dataCenter, rack, newState, releaseVersion);
    }

    /** True while the node is, or is becoming, part of the ring. */
    public boolean isActive() {
        return state != NodeState.LEFT;
    }

    @Override
    public String toString() {
        return hostId + "@" + broadcastAddress.getHostAddress() + " " + dataCenter + "/" + rack + " " + state;
    }
}
