package io.cassette.cluster.liveness;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the {@link PhiAccrualFailureDetector}: every {@code heartbeatInterval} it sends
 * PING_REQ to each watched peer (on the URGENT connection, answered on the peer's event loop)
 * and counts each answer as a heartbeat, then re-evaluates phi. Runs on the messaging service's
 * timers: no thread of its own. A ping expires after a few intervals, so pings to a dead peer do
 * not pile up in its queue.
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
  }

  public PhiAccrualFailureDetector detector() {
    return detector;
  }

  public void watch(InetSocketAddress peer) {
    detector.watch(peer);
  }

  public void forget(InetSocketAddress peer) {
    detector.forget(peer);
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
    int expiry = (int) Math.max(1, config.heartbeatInterval().toMillis() * PING_EXPIRY_INTERVALS);
    for (InetSocketAddress peer : detector.watched()) {
      try {
        messaging.sendWithCallback(peer, Message.out(Verb.PING_REQ, new byte[0]).withTimeoutMillis(expiry))
            .thenAccept(rsp -> detector.report(peer, System.nanoTime()));
      } catch (RuntimeException e) {
        log.debug("Cannot ping {}: {}", peer, e.toString());
      }
    }
    detector.interpret(System.nanoTime());
  }
}
