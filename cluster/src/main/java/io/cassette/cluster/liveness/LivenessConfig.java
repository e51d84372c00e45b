package io.cassette.cluster.liveness;

import java.time.Duration;

/**
 * Failure detector settings.
 *
 * @param phiConvictThreshold {@code phi_convict_threshold}: 8 as Cassandra; raise it (10-12) on
 *     lossy Wi-Fi to suspect later, lower it to suspect sooner
 * @param heartbeatInterval how often each peer is pinged; a silent peer is DOWN after about
 *     18.4 of these at the default threshold
 */
public record LivenessConfig(double phiConvictThreshold, Duration heartbeatInterval) {
  public LivenessConfig {
    if (phiConvictThreshold <= 0) throw new IllegalArgumentException("phi_convict_threshold: " + phiConvictThreshold);
    if (heartbeatInterval.toMillis() < 1) throw new IllegalArgumentException("heartbeat interval: " + heartbeatInterval);
  }

  /** Threshold 8, a heartbeat a second (Cassandra's gossip interval): DOWN after ~18 s. */
  public static LivenessConfig defaults() {
    return new LivenessConfig(8, Duration.ofSeconds(1));
  }
}
