package io.cassette.cluster.liveness;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the {@link PhiAccrualFailureDetector}: every {@code heartbeatInterval} it sends
 * PING_REQ to each watched peer (on the URGENT connection, answered on the peer's event loop)
 * and counts each answer as a heartbeat, then re-evaluates phi. Runs on the messaging service's
 * timers: no thread of its own. A ping expires after a few intervals, so pings to a dead peer do
 * not pile up in its queue.
 *
 * <p>Each PING_RSP also carries the answering node's load (data bytes on disk, as gossip's
 * LOAD state does in Cassandra), so every node knows its peers' last reported load for
 * {@code nodetool status} without a metadata entry. Payload layout (big-endian):
 * <pre>
 * PING_RSP: [8 bytes load, -1 when unknown]   (empty from a node that reports none: unknown)
 * </pre>
 * The load is sampled once per interval on the timer and answered from that sample, so the
 * event loop that answers pings does no work for it.
 *
 * <pre>
 * HeartbeatService hb = new HeartbeatService(ms, LivenessConfig.defaults());
 * hb.detector().addListener(listener);
 * hb.watch(ms.peer(InetAddress.getByName("127.0.0.2")));
 * hb.start();  ...  hb.stop();
 * </pre>
 */
public final class HeartbeatService {
  private static final Logger log = LoggerFactory.getLogger(HeartbeatService.class);
  /** A ping older than this many intervals is useless as a heartbeat. */
  private static final int PING_EXPIRY_INTERVALS = 4;

  private final MessagingService messaging;
  private final LivenessConfig config;
  private final PhiAccrualFailureDetector detector;
  private volatile ScheduledFuture<?> task;
  /** Where this node's load comes from; unknown (-1) unless set. */
  private volatile LongSupplier localLoad = () -> -1;
  /** This node's load as last sampled, encoded once for every PING_RSP until the next sample. */
  private volatile byte[] loadPayload = encodeLoad(-1);
  /** Each peer's last reported load; kept while it is DOWN (nodetool shows the last known load). */
  private final Map<InetSocketAddress, Long> peerLoads = new ConcurrentHashMap<>();

  public HeartbeatService(MessagingService messaging, LivenessConfig config) {
    this.messaging = messaging;
    this.config = config;
    this.detector = new PhiAccrualFailureDetector(config.phiConvictThreshold(), config.heartbeatInterval().toNanos());
    detector.addListener(new LivenessListener() {
      @Override
      public void onUp(InetSocketAddress peer) {
        log.info("Peer {} is now UP", peer);
      }

      @Override
      public void onDown(InetSocketAddress peer) {
        log.info("Peer {} is now DOWN (phi > {})", peer, config.phiConvictThreshold());
      }
    });
    // Answered on the event loop like the default handler, with this node's load.
    messaging.registerHandler(Verb.PING_REQ, m -> messaging.respond(m, loadPayload));
  }

  /** Where this node's load (data bytes on disk) comes from; sampled once per heartbeat interval. */
  public void localLoad(LongSupplier load) {
    this.localLoad = load;
    sampleLoad();
  }

  /** The load {@code peer} reported in its last PING_RSP, or -1 if it never reported one. */
  public long load(InetSocketAddress peer) {
    return peerLoads.getOrDefault(peer, -1L);
  }

  public PhiAccrualFailureDetector detector() {
    return detector;
  }

  public void watch(InetSocketAddress peer) {
    detector.watch(peer);
  }

  public void forget(InetSocketAddress peer) {
    detector.forget(peer);
    peerLoads.remove(peer);
  }

  public boolean isAlive(InetSocketAddress peer) {
    return detector.isAlive(peer);
  }

  public synchronized void start() {
    if (task != null) return;
    long millis = config.heartbeatInterval().toMillis();
    task = messaging.scheduler().scheduleWithFixedDelay(this::tick, 0, millis, TimeUnit.MILLISECONDS);
  }

  public synchronized void stop() {
    if (task != null) task.cancel(false);
    task = null;
  }

  private void tick() {
    sampleLoad();
    int expiry = (int) Math.max(1, config.heartbeatInterval().toMillis() * PING_EXPIRY_INTERVALS);
    for (InetSocketAddress peer : detector.watched()) {
      try {
        messaging.sendWithCallback(peer, Message.out(Verb.PING_REQ, new byte[0]).withTimeoutMillis(expiry))
            .thenAccept(rsp -> {
              detector.report(peer, System.nanoTime());
              long load = decodeLoad(rsp.payload());
              if (load >= 0) {
                peerLoads.put(peer, load);
              }
            });
      } catch (RuntimeException e) {
        log.debug("Cannot ping {}: {}", peer, e.toString());
      }
    }
    detector.interpret(System.nanoTime());
  }

  private void sampleLoad() {
    long load;
    try {
      load = localLoad.getAsLong();
    } catch (RuntimeException e) {
      log.debug("Cannot sample this node's load: {}", e.toString());
      load = -1;
    }
    loadPayload = encodeLoad(load);
  }

  static byte[] encodeLoad(long load) {
    return ByteBuffer.allocate(Long.BYTES).putLong(load).array();
  }

  /** The load in a PING_RSP; -1 for an empty (older node) or unknown one. */
  static long decodeLoad(byte[] payload) {
    return payload == null || payload.length < Long.BYTES ? -1 : ByteBuffer.wrap(payload).getLong();
  }
}
