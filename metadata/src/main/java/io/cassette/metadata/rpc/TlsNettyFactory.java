package io.cassette.metadata.rpc;

import io.cassette.metadata.MetadataTls;
import org.apache.ratis.client.ClientFactory;
import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerRpc;
import org.apache.ratis.server.ServerFactory;

/** Makes the TLS Netty server endpoint and client of {@link TlsNettyRpcType}. */
final class TlsNettyFactory implements ServerFactory, ClientFactory {
    private final RpcType type;
    private final MetadataTls tls;

    TlsNettyFactory(RpcType type, MetadataTls tls) {
        this.type = type;
        this.tls = tls;
    }

    @Override
    public RpcType getRpcType() {
        return type;
    }

    @Override
    public RaftServerRpc newRaftServerRpc(RaftServer server) {
        return new TlsNettyServerRpc(server, type, tls);
    }

    @Override
    public RaftClientRpc newRaftClientRpc(ClientId clientId, RaftProperties properties) {
        return new TlsNettyClientRpc(clientId, properties, tls);
    }
}
