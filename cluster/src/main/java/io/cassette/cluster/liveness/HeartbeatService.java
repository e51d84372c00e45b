package io.cassette.cluster.liveness;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the {@link PhiAccrualFailureDetector}: every {@code heartbeatInterval} it sends
 * PING_REQ to each watched peer (on the URGENT connection, answered on the peer's event loop)
 * and counts each answer as a heartbeat, then re-evaluates phi. Runs on the messaging service's
 * timers: no thread of its own. A ping expires after a few intervals, so pings to a dead peer do
 * not pile up in its queue.
 *
 * <p>Each PING_RSP also carries a small state of the answering node, opaque here (the server
 * puts its load and schema version in it, as gossip's application states do in Cassandra), so
 * every node knows what its peers last reported without a metadata entry. The state is made
 * when the ping is answered, on the event loop: its supplier must be cheap and never block.
 * Listeners see every answer (with the sender's metadata epoch in its header).
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
  private static final byte[] NO_STATE = new byte[0];
  /** What this node answers pings with; empty unless set. */
  private volatile Supplier<byte[]> localState = () -> NO_STATE;
  /** Each peer's last reported state; kept while it is DOWN (nodetool shows the last known load). */
  private final Map<InetSocketAddress, byte[]> peerStates = new ConcurrentHashMap<>();
  private final List<BiConsumer<InetSocketAddress, Message>> answerListeners = new CopyOnWriteArrayList<>();

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
    // Answered on the event loop like the default handler, with this node's state.
    messaging.registerHandler(Verb.PING_REQ, m -> messaging.respond(m, stateNow()));
  }

  /** What this node tells its peers in each ping answer; called on the event loop, must not block. */
  public void localState(Supplier<byte[]> state) {
    this.localState = state;
  }

  /** The state {@code peer} sent in its last ping answer (empty from a node that sends none), or null. */
  public byte[] state(InetSocketAddress peer) {
    return peerStates.get(peer);
  }

  /** Told of every ping answer, on a handler thread: the peer and its message (epoch, state). */
  public void onAnswer(BiConsumer<InetSocketAddress, Message> listener) {
    answerListeners.add(listener);
  }

  public PhiAccrualFailureDetector detector() {
    return detector;
  }

  /**
   * Starts tracking {@code peer}. A new peer is pinged at once, not at the next tick: a node
   * that has just learnt its peers from the metadata log (a joining node) sees them UP a
   * round trip later instead of up to an interval later.
   */
  public void watch(InetSocketAddress peer) {
    if (detector.watch(peer) && task != null) {
      ping(peer, pingExpiryMillis());
    }
  }

  public void forget(InetSocketAddress peer) {
    detector.forget(peer);
    peerStates.remove(peer);
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
    int expiry = pingExpiryMillis();
    for (InetSocketAddress peer : detector.watched()) {
      ping(peer, expiry);
    }
    detector.interpret(System.nanoTime());
  }

  private int pingExpiryMillis() {
    return (int) Math.max(1, config.heartbeatInterval().toMillis() * PING_EXPIRY_INTERVALS);
  }

  private void ping(InetSocketAddress peer, int expiry) {
    try {
      messaging.sendWithCallback(peer, Message.out(Verb.PING_REQ, new byte[0]).withTimeoutMillis(expiry))
          .thenAccept(rsp -> {
            detector.report(peer, System.nanoTime());
            peerStates.put(peer, rsp.payload());
            for (BiConsumer<InetSocketAddress, Message> l : answerListeners) {
              try {
                l.accept(peer, rsp);
              } catch (RuntimeException e) {
                log.warn("Heartbeat answer listener failed for {}", peer, e);
              }
            }
          });
    } catch (RuntimeException e) {
      log.debug("Cannot ping {}: {}", peer, e.toString());
    }
  }

  private byte[] stateNow() {
    try {
      byte[] state = localState.get();
      return state == null ? NO_STATE : state;
    } catch (RuntimeException e) {
      log.debug("Cannot make this node's heartbeat state: {}", e.toString());
      return NO_STATE;
    }
  }
}
