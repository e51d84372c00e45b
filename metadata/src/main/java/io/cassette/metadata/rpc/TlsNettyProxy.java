package io.cassette.metadata.rpc;

import static org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerReplyProto.RaftNettyServerReplyCase.EXCEPTIONREPLY;

import io.cassette.metadata.MetadataTls;
import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.netty.NettyRpcProxy;
import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerReplyProto;
import org.apache.ratis.proto.netty.NettyProtos.RaftNettyServerRequestProto;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.TimeoutIOException;
import org.apache.ratis.thirdparty.io.netty.bootstrap.Bootstrap;
import org.apache.ratis.thirdparty.io.netty.channel.Channel;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelFuture;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelInitializer;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelPipeline;
import org.apache.ratis.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.SimpleChannelInboundHandler;
import org.apache.ratis.thirdparty.io.netty.channel.socket.SocketChannel;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufEncoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufVarint32FrameDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.protobuf.ProtobufVarint32LengthFieldPrepender;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslHandler;
import org.apache.ratis.util.IOUtils;
import org.apache.ratis.util.NetUtils;
import org.apache.ratis.util.NettyUtils;
import org.apache.ratis.util.PeerProxyMap;
import org.apache.ratis.util.ProtoUtils;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TLS connection to a member's metadata port, with the replies matched to requests by
 * call id. Adapted from Apache Ratis 3.3.0's {@code NettyRpcProxy} and {@code NettyClient}
 * (Apache License 2.0): the same frames (varint-length protobuf
 * {@code RaftNettyServerRequestProto}), with an {@link SslHandler} first in the pipeline.
 * Requests written before the handshake ends wait in the SslHandler; a failed handshake fails
 * them and closes the connection, and Ratis reconnects through {@link PeerMap} on its next try.
 */
final class TlsNettyProxy implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(TlsNettyProxy.class);

    /** The connections of one server endpoint or client, one per peer, on one event loop group. */
    static final class PeerMap extends PeerProxyMap<TlsNettyProxy> {
        private final EventLoopGroup group;

        PeerMap(String name, RaftProperties properties, MetadataTls tls) {
            this(name, properties, tls, NettyUtils.newEventLoopGroup(name, 0, NettyConfigKeys.Client.useEpoll(properties)));
        }

        private PeerMap(String name, RaftProperties properties, MetadataTls tls, EventLoopGroup group) {
            super(name, peer -> new TlsNettyProxy(peer, properties, group, tls));
            this.group = group;
        }

        @Override
        public void close() {
            super.close();
            group.shutdownGracefully();
        }
    }

    private final RaftPeer peer;
    private final TimeDuration requestTimeout;
    private final Map<Long, CompletableFuture<RaftNettyServerReplyProto>> replies = new ConcurrentHashMap<>();
    private final Channel channel;
    private volatile SslHandler tlsHandler;
    private volatile boolean closed;

    TlsNettyProxy(RaftPeer peer, RaftProperties properties, EventLoopGroup group, MetadataTls tls)
            throws IOException {
        this.peer = peer;
        this.requestTimeout = RaftClientConfigKeys.Rpc.requestTimeout(properties);
        InetSocketAddress address = NetUtils.createSocketAddr(peer.getAddress());
        ChannelInitializer<SocketChannel> initializer = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ChannelPipeline p = ch.pipeline();
                tlsHandler = new SslHandler(tls.clientEngine(address.getHostString(), address.getPort()));
                tlsHandler.setHandshakeTimeoutMillis(TlsNettyServerRpc.HANDSHAKE_TIMEOUT_MILLIS);
                p.addLast(tlsHandler);
                p.addLast(new ProtobufVarint32FrameDecoder());
                p.addLast(new ProtobufDecoder(RaftNettyServerReplyProto.getDefaultInstance()));
                p.addLast(new ProtobufVarint32LengthFieldPrepender());
                p.addLast(new ProtobufEncoder());
                p.addLast(new Replies());
            }
        };
        ChannelFuture connected = new Bootstrap()
                .group(group)
                .channel(NettyUtils.getSocketChannelClass(group))
                .handler(initializer)
                .connect(address);
        // Unlike Ratis' NettyClient, an interrupt does not abandon the connection: Ratis
        // interrupts an election's vote requests when the election times out, and on a busy
        // board the TCP connect plus TLS handshake can outlast one election; the next election
        // then finds this connection made instead of starting over (the first TLS run here,
        // at load 45, never elected a leader in 60 s). The interrupt is kept for the caller.
        boolean interrupted = Thread.interrupted();
        try {
            if (!connected.awaitUninterruptibly(requestTimeout.toLong(TimeUnit.MILLISECONDS))) {
                connected.channel().close();
                throw new ConnectException("connecting to " + peer + " took more than " + requestTimeout);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (!connected.isSuccess()) {
            ConnectException e = new ConnectException("cannot connect to " + peer + ": " + connected.cause());
            e.initCause(connected.cause());
            throw e;
        }
        this.channel = connected.channel();
    }

    /** Completes each request's future with its reply; fails them all when the connection ends. */
    private final class Replies extends SimpleChannelInboundHandler<RaftNettyServerReplyProto> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, RaftNettyServerReplyProto proto) {
            CompletableFuture<RaftNettyServerReplyProto> future = replies.remove(NettyRpcProxy.getCallId(proto));
            if (future == null) {
                return; // its request already timed out or failed
            }
            if (proto.getRaftNettyServerReplyCase() == EXCEPTIONREPLY) {
                future.completeExceptionally((IOException) ProtoUtils.toObject(proto.getExceptionReply().getException()));
            } else {
                future.complete(proto);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A refused handshake lands here: say so once, at the level an operator reads.
            LOG.warn("metadata connection to {} failed: {}", peer, cause.toString());
            close();
            failOutstanding(new IOException("Caught an exception for the connection to " + peer, cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            failOutstanding(new AlreadyClosedException("Channel to " + peer + " is inactive."));
            super.channelInactive(ctx);
        }
    }

    CompletableFuture<RaftNettyServerReplyProto> sendAsync(RaftNettyServerRequestProto request) {
        CompletableFuture<RaftNettyServerReplyProto> reply = new CompletableFuture<>();
        long callId = requestOf(request).getCallId();
        replies.put(callId, reply);
        if (closed || !channel.isActive()) {
            replies.remove(callId, reply);
            // AlreadyClosedException makes Ratis drop this proxy and connect again.
            reply.completeExceptionally(new AlreadyClosedException("connection to " + peer + " is closed"));
            return reply;
        }
        ChannelFuture written = channel.writeAndFlush(request);
        written.addListener(f -> {
            if (!f.isSuccess()) {
                if (replies.remove(callId, reply)) {
                    reply.completeExceptionally(f.cause());
                }
                close();
            }
        });
        return reply;
    }

    RaftNettyServerReplyProto send(RaftRpcRequestProto request, RaftNettyServerRequestProto proto) throws IOException {
        CompletableFuture<RaftNettyServerReplyProto> reply = sendAsync(proto);
        TimeDuration timeout = requestTimeout.add(request.getTimeoutMs(), TimeUnit.MILLISECONDS);
        try {
            return reply.get(timeout.getDuration(), timeout.getUnit());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw IOUtils.toInterruptedIOException(ProtoUtils.toString(request) + " sending to " + peer + " is interrupted.", e);
        } catch (ExecutionException e) {
            throw IOUtils.toIOException(e);
        } catch (TimeoutException e) {
            throw timeout(timeout.toString());
        }
    }

    /** The TLS handshake has not finished yet (the SslHandler's own 10 s limit ends a stuck one). */
    boolean handshaking() {
        SslHandler h = tlsHandler;
        return h == null || !h.handshakeFuture().isDone();
    }

    /**
     * A request's time ran out. Ratis drops a connection on a {@link TimeoutIOException} and
     * connects again, which is cheap in plain text; a TLS handshake on a busy board can take
     * longer than a request's time (3 s at load 45 here), so a connection still handshaking is
     * kept: the error is then a plain IOException, and the requests queued in the SslHandler go
     * out when the handshake ends.
     */
    IOException timeout(String after) {
        return handshaking()
                ? new HandshakePending("TLS handshake with " + peer + " not finished after " + after)
                : new TimeoutIOException("no answer from " + peer + " after " + after);
    }

    /** A request timed out while its connection was still handshaking: keep the connection. */
    static final class HandshakePending extends IOException {
        HandshakePending(String message) {
            super(message);
        }

        static boolean in(Throwable t) {
            for (; t != null; t = t.getCause()) {
                if (t instanceof HandshakePending) {
                    return true;
                }
            }
            return false;
        }
    }

    private void failOutstanding(Throwable cause) {
        for (Long id : replies.keySet()) {
            CompletableFuture<RaftNettyServerReplyProto> f = replies.remove(id);
            if (f != null) {
                f.completeExceptionally(cause);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        channel.close();
        failOutstanding(new AlreadyClosedException("Closing connection to " + peer));
    }

    /** The request header of any request kind (Ratis' NettyRpcProxy.getRequest is not public). */
    static RaftRpcRequestProto requestOf(RaftNettyServerRequestProto proto) {
        return switch (proto.getRaftNettyServerRequestCase()) {
            case REQUESTVOTEREQUEST -> proto.getRequestVoteRequest().getServerRequest();
            case APPENDENTRIESREQUEST -> proto.getAppendEntriesRequest().getServerRequest();
            case INSTALLSNAPSHOTREQUEST -> proto.getInstallSnapshotRequest().getServerRequest();
            case RAFTCLIENTREQUEST -> proto.getRaftClientRequest().getRpcRequest();
            case SETCONFIGURATIONREQUEST -> proto.getSetConfigurationRequest().getRpcRequest();
            case GROUPMANAGEMENTREQUEST -> proto.getGroupManagementRequest().getRpcRequest();
            case GROUPLISTREQUEST -> proto.getGroupListRequest().getRpcRequest();
            case GROUPINFOREQUEST -> proto.getGroupInfoRequest().getRpcRequest();
            case TRANSFERLEADERSHIPREQUEST -> proto.getTransferLeadershipRequest().getRpcRequest();
            case STARTLEADERELECTIONREQUEST -> proto.getStartLeaderElectionRequest().getServerRequest();
            case SNAPSHOTMANAGEMENTREQUEST -> proto.getSnapshotManagementRequest().getRpcRequest();
            case LEADERELECTIONMANAGEMENTREQUEST -> proto.getLeaderElectionManagementRequest().getRpcRequest();
            default -> throw new IllegalArgumentException("request kind not set or not supported: "
                    + proto.getRaftNettyServerRequestCase());
        };
    }
}
