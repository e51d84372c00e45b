package io.cassette.cluster.net;

import io.cassette.metrics.Counter;
import io.cassette.metrics.MetricFamily;
import io.cassette.metrics.MetricsRegistry;
import java.util.function.DoubleSupplier;

/** The transport's counters, under {@code cassette_internode_*}. Thread-safe. */
final class InternodeMetrics {
  private final Counter sent;
  private final Counter received;
  private final Counter timeouts;
  private final Counter corruptFrames;
  private final Counter refusedHandshakes;
  private final Counter reconnects;
  private final MetricFamily<Counter> dropped;
  private final Counter droppedOverload;
  private final Counter droppedExpired;
  private final Counter droppedFilter;
  private final Counter droppedUnknownVerb;
  private final Counter droppedLateResponse;
  private final MetricsRegistry registry;

  InternodeMetrics(MetricsRegistry registry) {
    this.registry = registry == null ? new MetricsRegistry() : registry;
    MetricsRegistry r = this.registry;
    sent = r.counter("cassette_internode_messages_sent_total", "Internode messages written to connections");
    received = r.counter("cassette_internode_messages_received_total", "Internode messages decoded from connections");
    timeouts = r.counter("cassette_internode_request_timeouts_total", "Requests to peers that got no answer in time");
    corruptFrames = r.counter("cassette_internode_corrupt_frames_total", "Frames with a bad checksum or size (connection closed)");
    refusedHandshakes = r.counter("cassette_internode_refused_handshakes_total", "Handshakes refused, by us or by a peer");
    reconnects = r.counter("cassette_internode_connects_total", "Outbound connections established");
    dropped = r.counterFamily("cassette_internode_dropped_messages_total", "Internode messages dropped, by reason", "reason");
    droppedOverload = dropped.labels("overload");
    droppedExpired = dropped.labels("expired");
    droppedFilter = dropped.labels("filter");
    droppedUnknownVerb = dropped.labels("unknown_verb");
    droppedLateResponse = dropped.labels("late_response");
  }

  void pendingBytesGauge(DoubleSupplier bytes) {
    registry.gauge("cassette_internode_pending_bytes", "Bytes queued for peers, not yet written", bytes);
  }

  void sent() { sent.inc(); }
  void received() { received.inc(); }
  void timeout() { timeouts.inc(); }
  void corruptFrame() { corruptFrames.inc(); }
  void refusedHandshake() { refusedHandshakes.inc(); }
  void connected() { reconnects.inc(); }
  void droppedOverload() { droppedOverload.inc(); }
  void droppedExpired() { droppedExpired.inc(); }
  void droppedFilter() { droppedFilter.inc(); }
  void droppedUnknownVerb() { droppedUnknownVerb.inc(); }
  void droppedLateResponse() { droppedLateResponse.inc(); }

  long sentCount() { return sent.value(); }
  long receivedCount() { return received.value(); }
  long corruptFrameCount() { return corruptFrames.value(); }
  long overloadCount() { return droppedOverload.value(); }
  long timeoutCount() { return timeouts.value(); }
}
