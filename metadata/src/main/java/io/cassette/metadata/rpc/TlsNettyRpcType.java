package io.cassette.metadata.rpc;

import io.cassette.metadata.MetadataTls;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.rpc.RpcFactory;
import org.apache.ratis.rpc.RpcType;

/**
 * Ratis' Netty transport with TLS first in every pipeline: a user-defined Ratis RPC type
 * (Ratis instantiates it by class name from the properties), whose factory finds the node's
 * {@link MetadataTls} in the {@link Parameters} given to the server and client builders.
 *
 * <p>Why this and not ratis-grpc's TLS or a transport over internode messaging: see the
 * module README ("TLS on the metadata port").
 */
public final class TlsNettyRpcType implements RpcType {
    /** The {@link Parameters} key of the node's {@link MetadataTls}. */
    static final String TLS_PARAMETER = "cassette.metadata.tls";

    /** Selects this transport in {@code properties} and puts {@code tls} in {@code parameters}. */
    public static void configure(RaftProperties properties, Parameters parameters, MetadataTls tls) {
        RaftConfigKeys.Rpc.setType(properties, new TlsNettyRpcType());
        parameters.put(TLS_PARAMETER, tls, MetadataTls.class);
    }

    @Override
    public String name() {
        return TlsNettyRpcType.class.getName();
    }

    @Override
    public RpcFactory newFactory(Parameters parameters) {
        return new TlsNettyFactory(this, parameters.getNonNull(TLS_PARAMETER, MetadataTls.class));
    }

    @Override
    public String toString() {
        return "NETTY+TLS";
    }
}
