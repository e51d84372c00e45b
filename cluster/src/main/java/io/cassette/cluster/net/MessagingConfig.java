package io.cassette.cluster.net;

import io.cassette.metrics.MetricsRegistry;
import io.netty.channel.EventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Everything {@link MessagingService} needs, sized for a board with a 128 MB heap. Build with
 * {@link #builder(InetAddress)}; each setter names the cassandra.yaml key it stands for, where
 * Cassandra has one.
 *
 * @param listenAddress {@code listen_address}: bound by the server and by outgoing connections
 * @param storagePort {@code storage_port} (7000)
 * @param clusterName {@code cluster_name}; peers with another name are refused
 * @param hostId this node's host id, sent in the handshake
 * @param epoch the node's current cluster metadata epoch, stamped on every message
 * @param timeouts per-verb expiry ({@code write_request_timeout} ...)
 * @param sendQueueEndpointCapacity bytes queued for one peer before sends are refused
 *     ({@code internode_application_send_queue_reserve_endpoint_capacity}; Cassandra: 128 MiB)
 * @param sendQueueGlobalCapacity bytes queued for all peers together
 *     ({@code internode_application_send_queue_reserve_global_capacity}; Cassandra: 512 MiB)
 * @param receiveQueueEndpointCapacity bytes of received messages being handled per connection
 *     before the node stops reading from it ({@code internode_application_receive_queue_reserve_endpoint_capacity})
 * @param maxMessageSize {@code internode_max_message_size}; larger messages are refused at send
 *     and a peer announcing one is disconnected
 * @param maxQueuedMessages messages queued per connection (a bound on count as well as bytes)
 * @param largeMessageThreshold messages at least this big go on the LARGE connection
 * @param maxFramePayload frame size ({@link FrameFormat#MAX_PAYLOAD_BYTES}; lower only in tests)
 * @param reconnectInitialDelay first retry after a failed connect; doubles, with jitter
 * @param reconnectMaxDelay the cap of the backoff
 * @param connectTimeout {@code internode_tcp_connect_timeout} (2 s)
 * @param socketThreads Netty event-loop threads (all connections and timers)
 * @param handlerThreads threads running verb handlers; they exit when idle
 * @param metrics where to register internode metrics; null for a private registry
 * @param eventLoopGroup the node's existing Netty event loops to share (saves a thread and a
 *     pooled-buffer arena); null to create {@code socketThreads} of our own. A shared group is
 *     not shut down by {@link MessagingService#stop()}
 */
public record MessagingConfig(
    InetAddress listenAddress,
    int storagePort,
    String clusterName,
    UUID hostId,
    LongSupplier epoch,
    VerbTimeouts timeouts,
    long sendQueueEndpointCapacity,
    long sendQueueGlobalCapacity,
    long receiveQueueEndpointCapacity,
    int maxMessageSize,
    int maxQueuedMessages,
    int largeMessageThreshold,
    int maxFramePayload,
    Duration reconnectInitialDelay,
    Duration reconnectMaxDelay,
    Duration connectTimeout,
    int socketThreads,
    int handlerThreads,
    MetricsRegistry metrics,
    EventLoopGroup eventLoopGroup) {

  public static final int DEFAULT_STORAGE_PORT = 7000;
  public static final String DEFAULT_CLUSTER_NAME = "Test Cluster";
  private static final int MiB = 1 << 20;

  public MessagingConfig {
    if (storagePort < 0 || storagePort > 65535) throw new IllegalArgumentException("storage_port: " + storagePort);
    if (maxMessageSize > sendQueueEndpointCapacity) {
      throw new IllegalArgumentException("internode_max_message_size " + maxMessageSize
          + " exceeds internode_application_send_queue_reserve_endpoint_capacity " + sendQueueEndpointCapacity);
    }
    if (sendQueueEndpointCapacity > sendQueueGlobalCapacity) {
      throw new IllegalArgumentException("endpoint send capacity " + sendQueueEndpointCapacity
          + " exceeds global send capacity " + sendQueueGlobalCapacity);
    }
    if (socketThreads < 1 || handlerThreads < 1) throw new IllegalArgumentException("threads must be >= 1");
  }

  /** This node's address as peers know it. */
  public InetSocketAddress address() {
    return new InetSocketAddress(listenAddress, storagePort);
  }

  public static Builder builder(InetAddress listenAddress) {
    return new Builder(listenAddress);
  }

  public Builder toBuilder() {
    Builder b = new Builder(listenAddress);
    b.storagePort = storagePort;
    b.clusterName = clusterName;
    b.hostId = hostId;
    b.epoch = epoch;
    b.timeouts = timeouts;
    b.sendQueueEndpointCapacity = sendQueueEndpointCapacity;
    b.sendQueueGlobalCapacity = sendQueueGlobalCapacity;
    b.receiveQueueEndpointCapacity = receiveQueueEndpointCapacity;
    b.maxMessageSize = maxMessageSize;
    b.maxQueuedMessages = maxQueuedMessages;
    b.largeMessageThreshold = largeMessageThreshold;
    b.maxFramePayload = maxFramePayload;
    b.reconnectInitialDelay = reconnectInitialDelay;
    b.reconnectMaxDelay = reconnectMaxDelay;
    b.connectTimeout = connectTimeout;
    b.socketThreads = socketThreads;
    b.handlerThreads = handlerThreads;
    b.metrics = metrics;
    b.eventLoopGroup = eventLoopGroup;
    return b;
  }

  /** Defaults for a board (128 MB heap); every value can be overridden. */
  public static final class Builder {
    private final InetAddress listenAddress;
    private int storagePort = DEFAULT_STORAGE_PORT;
    private String clusterName = DEFAULT_CLUSTER_NAME;
    private UUID hostId = UUID.randomUUID();
    private LongSupplier epoch = () -> 0L;
    private VerbTimeouts timeouts = VerbTimeouts.defaults();
    // 4 MiB per peer, 16 MiB for all: a few percent of a 128 MB heap, enough for hundreds of
    // typical mutations in flight per peer on a board's network.
    private long sendQueueEndpointCapacity = 4L * MiB;
    private long sendQueueGlobalCapacity = 16L * MiB;
    private long receiveQueueEndpointCapacity = 4L * MiB;
    private int maxMessageSize = 2 * MiB;
    private int maxQueuedMessages = 4096;
    // Cassandra's threshold for the large-message connection.
    private int largeMessageThreshold = 64 * 1024;
    private int maxFramePayload = FrameFormat.MAX_PAYLOAD_BYTES;
    private Duration reconnectInitialDelay = Duration.ofMillis(100);
    private Duration reconnectMaxDelay = Duration.ofSeconds(2);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private int socketThreads = 1;
    private int handlerThreads = 2;
    private MetricsRegistry metrics;
    private EventLoopGroup eventLoopGroup;

    private Builder(InetAddress listenAddress) {
      this.listenAddress = listenAddress;
    }

    /** {@code storage_port}; 0 picks a free port (tests with one node only). */
    public Builder storagePort(int port) { this.storagePort = port; return this; }
    /** {@code cluster_name}. */
    public Builder clusterName(String name) { this.clusterName = name; return this; }
    public Builder hostId(UUID id) { this.hostId = id; return this; }
    public Builder epoch(LongSupplier epoch) { this.epoch = epoch; return this; }
    public Builder timeouts(VerbTimeouts timeouts) { this.timeouts = timeouts; return this; }
    /** {@code internode_application_send_queue_reserve_endpoint_capacity}. */
    public Builder sendQueueEndpointCapacity(long bytes) { this.sendQueueEndpointCapacity = bytes; return this; }
    /** {@code internode_application_send_queue_reserve_global_capacity}. */
    public Builder sendQueueGlobalCapacity(long bytes) { this.sendQueueGlobalCapacity = bytes; return this; }
    /** {@code internode_application_receive_queue_reserve_endpoint_capacity}. */
    public Builder receiveQueueEndpointCapacity(long bytes) { this.receiveQueueEndpointCapacity = bytes; return this; }
    /** {@code internode_max_message_size}. */
    public Builder maxMessageSize(int bytes) { this.maxMessageSize = bytes; return this; }
    public Builder maxQueuedMessages(int count) { this.maxQueuedMessages = count; return this; }
    public Builder largeMessageThreshold(int bytes) { this.largeMessageThreshold = bytes; return this; }
    public Builder maxFramePayload(int bytes) { this.maxFramePayload = bytes; return this; }
    public Builder reconnectDelays(Duration initial, Duration max) {
      this.reconnectInitialDelay = initial;
      this.reconnectMaxDelay = max;
      return this;
    }
    /** {@code internode_tcp_connect_timeout}. */
    public Builder connectTimeout(Duration timeout) { this.connectTimeout = timeout; return this; }
    public Builder socketThreads(int n) { this.socketThreads = n; return this; }
    public Builder handlerThreads(int n) { this.handlerThreads = n; return this; }
    public Builder metrics(MetricsRegistry registry) { this.metrics = registry; return this; }
    /** Share the node's NIO event loops (the CQL/RESP servers') instead of starting our own. */
    public Builder eventLoopGroup(EventLoopGroup shared) { this.eventLoopGroup = shared; return this; }

    public MessagingConfig build() {
      return new MessagingConfig(listenAddress, storagePort, clusterName, hostId, epoch, timeouts,
          sendQueueEndpointCapacity, sendQueueGlobalCapacity, receiveQueueEndpointCapacity,
          maxMessageSize, maxQueuedMessages, largeMessageThreshold, maxFramePayload,
          reconnectInitialDelay, reconnectMaxDelay, connectTimeout, socketThreads, handlerThreads, metrics, eventLoopGroup);
    }
  }
}
