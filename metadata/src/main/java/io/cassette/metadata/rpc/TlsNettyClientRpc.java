package io.cassette.metadata.rpc;

import io.cassette.metadata.MetadataTls;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.impl.ClientProtoUtils;
import org.apache.ratis.client.impl.RaftClientRpcWithProxy;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerReplyProto;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerRequestProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupInfoRequest;
import org.apache.ratis.protocol.GroupListRequest;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.LeaderElectionManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.SnapshotManagementRequest;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.util.JavaUtils;
import org.apache.ratis.util.TimeDuration;
import org.apache.ratis.util.TimeoutExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Raft client side over TLS (commits, and a follower's "what follows epoch N?" reads).
 * Adapted from Apache Ratis 3.3.0's {@code NettyClientRpc} (Apache License 2.0).
 */
final class TlsNettyClientRpc extends RaftClientRpcWithProxy<TlsNettyProxy> {
    private static final Logger LOG = LoggerFactory.getLogger(TlsNettyClientRpc.class);

    private final ClientId clientId;
    private final TimeDuration requestTimeout;
    private final TimeoutExecutor scheduler = TimeoutExecutor.getInstance();

    TlsNettyClientRpc(ClientId clientId, RaftProperties properties, MetadataTls tls) {
        super(new TlsNettyProxy.PeerMap(clientId.toString(), properties, tls));
        this.clientId = clientId;
        this.requestTimeout = RaftClientConfigKeys.Rpc.requestTimeout(properties);
    }

    @Override
    public CompletableFuture<RaftClientReply> sendRequestAsync(RaftClientRequest request) {
        try {
            TlsNettyProxy proxy = getProxies().getProxy(request.getServerId());
            CompletableFuture<RaftClientReply> result = new CompletableFuture<>();
            proxy.sendAsync(toProto(request)).thenApply(reply -> toReply(request, reply)).whenComplete((reply, e) -> {
                if (e == null && reply == null) {
                    e = new NullPointerException("Both reply==null && e==null");
                }
                if (e == null) {
                    e = reply.getNotLeaderException();
                }
                if (e == null) {
                    e = reply.getLeaderNotReadyException();
                }
                if (e != null) {
                    result.completeExceptionally(e);
                } else {
                    result.complete(reply);
                }
            });
            long callId = request.getCallId();
            scheduler.onTimeout(requestTimeout, () -> {
                if (!result.isDone()) {
                    result.completeExceptionally(proxy.timeout(clientId + "->" + request.getServerId()
                            + " request #" + callId + " timeout " + requestTimeout.getDuration()));
                }
            }, LOG, () -> "Timeout check for client request #" + callId);
            return result;
        } catch (Throwable e) {
            return JavaUtils.completeExceptionally(e);
        }
    }

    /**
     * Ratis' client asks to reconnect on any error when it moves on to another member; a
     * connection whose handshake is still running is kept instead (closing it would throw the
     * handshake's work away and start a new one next time).
     */
    @Override
    public boolean handleException(org.apache.ratis.protocol.RaftPeerId serverId, Throwable t, boolean reconnect) {
        return super.handleException(serverId, t, reconnect && !TlsNettyProxy.HandshakePending.in(t));
    }

    @Override
    public RaftClientReply sendRequest(RaftClientRequest request) throws IOException {
        TlsNettyProxy proxy = getProxies().getProxy(request.getServerId());
        RaftNettyServerRequestProto proto = toProto(request);
        return toReply(request, proxy.send(TlsNettyProxy.requestOf(proto), proto));
    }

    private static RaftClientReply toReply(RaftClientRequest request, RaftNettyServerReplyProto reply) {
        if (request instanceof GroupListRequest) {
            return ClientProtoUtils.toGroupListReply(reply.getGroupListReply());
        } else if (request instanceof GroupInfoRequest) {
            return ClientProtoUtils.toGroupInfoReply(reply.getGroupInfoReply());
        }
        return ClientProtoUtils.toRaftClientReply(reply.getRaftClientReply());
    }

    private static RaftNettyServerRequestProto toProto(RaftClientRequest request) {
        RaftNettyServerRequestProto.Builder b = RaftNettyServerRequestProto.newBuilder();
        if (request instanceof GroupManagementRequest r) {
            b.setGroupManagementRequest(ClientProtoUtils.toGroupManagementRequestProto(r));
        } else if (request instanceof SetConfigurationRequest r) {
            b.setSetConfigurationRequest(ClientProtoUtils.toSetConfigurationRequestProto(r));
        } else if (request instanceof GroupListRequest r) {
            b.setGroupListRequest(ClientProtoUtils.toGroupListRequestProto(r));
        } else if (request instanceof GroupInfoRequest r) {
            b.setGroupInfoRequest(ClientProtoUtils.toGroupInfoRequestProto(r));
        } else if (request instanceof TransferLeadershipRequest r) {
            b.setTransferLeadershipRequest(ClientProtoUtils.toTransferLeadershipRequestProto(r));
        } else if (request instanceof SnapshotManagementRequest r) {
            b.setSnapshotManagementRequest(ClientProtoUtils.toSnapshotManagementRequestProto(r));
        } else if (request instanceof LeaderElectionManagementRequest r) {
            b.setLeaderElectionManagementRequest(ClientProtoUtils.toLeaderElectionManagementRequestProto(r));
        } else {
            b.setRaftClientRequest(ClientProtoUtils.toRaftClientRequestProto(request));
        }
        return b.build();
    }
}
