package io.cassette.cluster.liveness;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The phi-accrual failure detector (Hayashibara et al., as in Cassandra's {@code
 * FailureDetector}): each peer's heartbeats feed an {@link ArrivalWindow}; a peer is DOWN once
 * phi exceeds {@code phi_convict_threshold} (8 by default), and UP again at its next heartbeat.
 * With heartbeats every {@code T}, a silent peer is convicted about {@code threshold * ln(10) *
 * T} ≈ 18.4 T after its last heartbeat (see {@link #convictAfterNanos}).
 *
 * <p>Pure logic with the time passed in, so tests need no clock; {@link HeartbeatService} drives
 * it with PING_REQ round trips. Thread-safe (one lock per peer).
 */
public final class PhiAccrualFailureDetector {
  /** 1 / ln(10): turns (elapsed / mean) into -log10 of the exponential tail probability. */
  static final double PHI_FACTOR = 1.0 / Math.log(10.0);
  /** Heartbeat intervals remembered per peer (Cassandra's window size). */
  static final int WINDOW_SIZE = 1000;

  private final double phiConvictThreshold;
  private final long initialIntervalNanos;
  private final long maxIntervalNanos;
  private final Map<InetSocketAddress, PeerState> peers = new ConcurrentHashMap<>();
  private final List<LivenessListener> listeners = new CopyOnWriteArrayList<>();

  private static final class PeerState {
    final ArrivalWindow window;
    boolean up;

    PeerState(ArrivalWindow window) {
      this.window = window;
    }
  }

  /**
   * @param phiConvictThreshold {@code phi_convict_threshold}, 5..16 is sane (Cassandra: 8)
   * @param heartbeatIntervalNanos how often heartbeats are expected; seeds the window with twice
   *     this, and intervals above twice this are ignored
   */
  public PhiAccrualFailureDetector(double phiConvictThreshold, long heartbeatIntervalNanos) {
    if (phiConvictThreshold <= 0) throw new IllegalArgumentException("phi_convict_threshold: " + phiConvictThreshold);
    this.phiConvictThreshold = phiConvictThreshold;
    this.initialIntervalNanos = 2 * heartbeatIntervalNanos;
    this.maxIntervalNanos = 2 * heartbeatIntervalNanos;
  }

  public void addListener(LivenessListener listener) {
    listeners.add(listener);
  }

  /** Starts tracking a peer (DOWN until its first heartbeat); true if it was not tracked yet. */
  public boolean watch(InetSocketAddress peer) {
    boolean[] added = new boolean[1];
    peers.computeIfAbsent(peer, p -> {
      added[0] = true;
      return new PeerState(new ArrivalWindow(WINDOW_SIZE, initialIntervalNanos, maxIntervalNanos));
    });
    return added[0];
  }

  /** Stops tracking a peer (it left the ring). */
  public void forget(InetSocketAddress peer) {
    peers.remove(peer);
  }

  public Iterable<InetSocketAddress> watched() {
    return peers.keySet();
  }

  /** A heartbeat from {@code peer} arrived at {@code nowNanos}; a DOWN peer becomes UP. */
  public void report(InetSocketAddress peer, long nowNanos) {
    PeerState s = peers.get(peer);
    if (s == null) return; // not watched (forgotten meanwhile)
    boolean cameUp;
    synchronized (s) {
      s.window.add(nowNanos);
      cameUp = !s.up;
      s.up = true;
    }
    if (cameUp) for (LivenessListener l : listeners) l.onUp(peer);
  }

  /** Re-evaluates every peer at {@code nowNanos}; UP peers whose phi passed the threshold go DOWN. */
  public void interpret(long nowNanos) {
    for (Map.Entry<InetSocketAddress, PeerState> e : peers.entrySet()) {
      PeerState s = e.getValue();
      boolean wentDown;
      synchronized (s) {
        wentDown = s.up && s.window.phi(nowNanos) > phiConvictThreshold;
        if (wentDown) s.up = false;
      }
      if (wentDown) for (LivenessListener l : listeners) l.onDown(e.getKey());
    }
  }

  public boolean isAlive(InetSocketAddress peer) {
    PeerState s = peers.get(peer);
    if (s == null) return false;
    synchronized (s) {
      return s.up;
    }
  }

  /** Current suspicion of a peer (0 when never heard from or not watched). */
  public double phi(InetSocketAddress peer, long nowNanos) {
    PeerState s = peers.get(peer);
    if (s == null) return 0;
    synchronized (s) {
      return s.window.phi(nowNanos);
    }
  }

  /** How long after the last heartbeat a peer whose mean interval is {@code meanNanos} is convicted. */
  public long convictAfterNanos(double meanNanos) {
    return (long) (phiConvictThreshold / PHI_FACTOR * meanNanos);
  }

  public double phiConvictThreshold() {
    return phiConvictThreshold;
  }
}
