package io.cassette.metadata.rpc;

import io.cassette.metadata.MetadataTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.impl.ClientProtoUtils;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.proto.RaftProtos.AppendEntriesReplyProto;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.InstallSnapshotReplyProto;
import org.apache.ratis.proto.RaftProtos.InstallSnapshotRequestProto;
import org.apache.ratis.proto.RaftProtos.RaftRpcReplyProto;
import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.proto.RaftProtos.RequestVoteReplyProto;
import org.apache.ratis.proto.RaftProtos.RequestVoteRequestProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionReplyProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyExceptionReplyProto;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerReplyProto;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerRequestProto;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerRpcWithProxy;
import org.apache.ratis.thirdparty.io.netty.bootstrap.ServerBootstrap;
import org.apache.ratis.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.ratis.thirdparty.io.netty.channel.Channel;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelFuture;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandler;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelInitializer;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelPipeline;
import org.apache.ratis.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.SimpleChannelInboundHandler;
import org.apache.ratis.thirdparty.io.netty.channel.socket.SocketChannel;
import org.apache.ratis.thirdparty.io.netty.handler.codec.ByteToMessageDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufEncoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufVarint32FrameDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufVarint32LengthFieldPrepender;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslHandler;
import org.apache.ratis.util.NettyUtils;
import org.apache.ratis.util.ProtoUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata port of a member with TLS: accepts TLS connections (and plain text too when
 * {@link MetadataTls#acceptsPlainText()}) and answers Raft and client requests; sends this
 * member's own Raft requests through {@link TlsNettyProxy}. Adapted from Apache Ratis 3.3.0's
 * {@code NettyRpcService} (Apache License 2.0): same frames and the same dispatch, so a TLS
 * member speaks exactly what a plain one does once the handshake is done.
 */
final class TlsNettyServerRpc extends RaftServerRpcWithProxy<TlsNettyProxy, TlsNettyProxy.PeerMap> {
    private static final Logger LOG = LoggerFactory.getLogger(TlsNettyServerRpc.class);
    /** How many bytes tell a TLS record from plain text (Netty's SslHandler.isEncrypted needs 5). */
    private static final int TLS_RECORD_HEADER = 5;
    /**
     * Netty's default is 10 s. Under heavy load (load average 30-45 on this 2-core VM, four
     * Raft nodes in one JVM doing a dozen cold handshakes at once) handshakes took longer, were
     * cut at 10 s and started over, and no leader was elected in 60 s; a longer limit lets
     * each one finish once. A stuck peer still gives up after this.
     */
    static final long HANDSHAKE_TIMEOUT_MILLIS = 30_000;

    private final RaftServer server;
    private final RpcType type;
    private final MetadataTls tls;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final InetSocketAddress socketAddress;
    private volatile ChannelFuture bound;

    TlsNettyServerRpc(RaftServer server, RpcType type, MetadataTls tls) {
        super(server::getId, id -> new TlsNettyProxy.PeerMap(id.toString(), server.getProperties(), tls));
        this.server = server;
        this.type = type;
        this.tls = tls;
        boolean useEpoll = NettyConfigKeys.Server.useEpoll(server.getProperties());
        this.bossGroup = NettyUtils.newEventLoopGroup("metadata-tls-boss", 1, useEpoll);
        this.workerGroup = NettyUtils.newEventLoopGroup("metadata-tls-worker", 0, useEpoll);
        String host = NettyConfigKeys.Server.host(server.getProperties());
        int port = NettyConfigKeys.Server.port(server.getProperties());
        this.socketAddress = host == null || host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    @Override
    public RpcType getRpcType() {
        return type;
    }

    @Override
    protected void startImpl() throws IOException {
        ChannelInitializer<SocketChannel> initializer = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ChannelPipeline p = ch.pipeline();
                p.addLast(tls.acceptsPlainText() ? new TlsOrPlain() : serverHandler());
                p.addLast(new ProtobufVarint32FrameDecoder());
                p.addLast(new ProtobufDecoder(RaftNettyServerRequestProto.getDefaultInstance()));
                p.addLast(new ProtobufVarint32LengthFieldPrepender());
                p.addLast(new ProtobufEncoder());
                p.addLast(new Requests());
            }
        };
        try {
            bound = new ServerBootstrap()
                    .group(bossGroup, workerGroup)
                    .channel(NettyUtils.getServerChannelClass(bossGroup))
                    .childHandler(initializer)
                    .bind(socketAddress)
                    .syncUninterruptibly();
        } catch (Exception e) {
            throw new IOException(getId() + ": cannot listen on the metadata port " + socketAddress + ": " + e, e);
        }
    }

    @Override
    public void closeImpl() throws IOException {
        ChannelFuture b = bound;
        if (b != null) {
            b.channel().close().syncUninterruptibly();
        }
        bossGroup.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        workerGroup.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        try {
            bossGroup.awaitTermination(1000, TimeUnit.MILLISECONDS);
            workerGroup.awaitTermination(1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        super.closeImpl();
    }

    @Override
    public InetSocketAddress getInetSocketAddress() {
        ChannelFuture b = bound;
        return b == null ? socketAddress : (InetSocketAddress) b.channel().localAddress();
    }

    private SslHandler serverHandler() {
        SslHandler h = new SslHandler(tls.serverEngine());
        h.setHandshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MILLIS);
        return h;
    }

    /** optional: TLS when the first bytes are a TLS record, plain text otherwise. */
    private final class TlsOrPlain extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < TLS_RECORD_HEADER) {
                return;
            }
            if (SslHandler.isEncrypted(in, false)) {
                ctx.pipeline().replace(this, "tls", serverHandler());
            } else {
                ctx.pipeline().remove(this);
            }
        }
    }

    @ChannelHandler.Sharable
    private final class Requests extends SimpleChannelInboundHandler<RaftNettyServerRequestProto> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, RaftNettyServerRequestProto proto) {
            ctx.writeAndFlush(handle(proto));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A peer without an acceptable certificate, or plain text sent to a TLS port.
            LOG.warn("metadata port: connection from {} refused: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }

    private RaftNettyServerReplyProto handle(RaftNettyServerRequestProto proto) {
        RaftRpcRequestProto rpcRequest = TlsNettyProxy.requestOf(proto);
        RaftNettyServerReplyProto.Builder reply = RaftNettyServerReplyProto.newBuilder();
        try {
            switch (proto.getRaftNettyServerRequestCase()) {
                case REQUESTVOTEREQUEST -> reply.setRequestVoteReply(server.requestVote(proto.getRequestVoteRequest()));
                case STARTLEADERELECTIONREQUEST ->
                        reply.setStartLeaderElectionReply(server.startLeaderElection(proto.getStartLeaderElectionRequest()));
                case APPENDENTRIESREQUEST -> reply.setAppendEntriesReply(server.appendEntries(proto.getAppendEntriesRequest()));
                case INSTALLSNAPSHOTREQUEST ->
                        reply.setInstallSnapshotReply(server.installSnapshot(proto.getInstallSnapshotRequest()));
                case RAFTCLIENTREQUEST -> reply.setRaftClientReply(clientReply(server.submitClientRequest(
                        ClientProtoUtils.toRaftClientRequest(proto.getRaftClientRequest()))));
                case TRANSFERLEADERSHIPREQUEST -> reply.setRaftClientReply(clientReply(server.transferLeadership(
                        ClientProtoUtils.toTransferLeadershipRequest(proto.getTransferLeadershipRequest()))));
                case SNAPSHOTMANAGEMENTREQUEST -> reply.setRaftClientReply(clientReply(server.snapshotManagement(
                        ClientProtoUtils.toSnapshotManagementRequest(proto.getSnapshotManagementRequest()))));
                case LEADERELECTIONMANAGEMENTREQUEST -> reply.setRaftClientReply(clientReply(server.leaderElectionManagement(
                        ClientProtoUtils.toLeaderElectionManagementRequest(proto.getLeaderElectionManagementRequest()))));
                case SETCONFIGURATIONREQUEST -> reply.setRaftClientReply(clientReply(server.setConfiguration(
                        ClientProtoUtils.toSetConfigurationRequest(proto.getSetConfigurationRequest()))));
                case GROUPMANAGEMENTREQUEST -> reply.setRaftClientReply(clientReply(server.groupManagement(
                        ClientProtoUtils.toGroupManagementRequest(proto.getGroupManagementRequest()))));
                case GROUPLISTREQUEST -> reply.setGroupListReply(ClientProtoUtils.toGroupListReplyProto(
                        server.getGroupList(ClientProtoUtils.toGroupListRequest(proto.getGroupListRequest()))));
                case GROUPINFOREQUEST -> reply.setGroupInfoReply(ClientProtoUtils.toGroupInfoReplyProto(
                        server.getGroupInfo(ClientProtoUtils.toGroupInfoRequest(proto.getGroupInfoRequest()))));
                default -> throw new UnsupportedOperationException("request kind not supported: " + proto.getRaftNettyServerRequestCase());
            }
            return reply.build();
        } catch (IOException e) {
            RaftRpcReplyProto.Builder rpcReply = RaftRpcReplyProto.newBuilder()
                    .setRequestorId(rpcRequest.getRequestorId())
                    .setReplyId(rpcRequest.getReplyId())
                    .setCallId(rpcRequest.getCallId())
                    .setSuccess(false);
            return RaftNettyServerReplyProto.newBuilder().setExceptionReply(RaftNettyExceptionReplyProto.newBuilder()
                    .setRpcReply(rpcReply).setException(ProtoUtils.writeObject2ByteString(e))).build();
        }
    }

    private static org.apache.ratis.proto.RaftProtos.RaftClientReplyProto clientReply(RaftClientReply r) {
        return ClientProtoUtils.toRaftClientReplyProto(r);
    }

    // This member's own requests to its peers.

    @Override
    public RequestVoteReplyProto requestVote(RequestVoteRequestProto request) throws IOException {
        return send(request.getServerRequest(),
                RaftNettyServerRequestProto.newBuilder().setRequestVoteRequest(request).build()).getRequestVoteReply();
    }

    @Override
    public StartLeaderElectionReplyProto startLeaderElection(StartLeaderElectionRequestProto request) throws IOException {
        return send(request.getServerRequest(), RaftNettyServerRequestProto.newBuilder()
                .setStartLeaderElectionRequest(request).build()).getStartLeaderElectionReply();
    }

    @Override
    public AppendEntriesReplyProto appendEntries(AppendEntriesRequestProto request) throws IOException {
        return send(request.getServerRequest(),
                RaftNettyServerRequestProto.newBuilder().setAppendEntriesRequest(request).build()).getAppendEntriesReply();
    }

    @Override
    public InstallSnapshotReplyProto installSnapshot(InstallSnapshotRequestProto request) throws IOException {
        return send(request.getServerRequest(), RaftNettyServerRequestProto.newBuilder()
                .setInstallSnapshotRequest(request).build()).getInstallSnapshotReply();
    }

    private RaftNettyServerReplyProto send(RaftRpcRequestProto request, RaftNettyServerRequestProto proto) throws IOException {
        RaftPeerId id = RaftPeerId.valueOf(request.getReplyId());
        try {
            return getProxies().getProxy(id).send(request, proto);
        } catch (Exception e) {
            getProxies().handleException(id, e, false);
            throw e;
        }
    }
}
