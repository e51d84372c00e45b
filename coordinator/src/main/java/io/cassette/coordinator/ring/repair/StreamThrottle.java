package io.cassette.coordinator.ring.repair;

/**
 * The node's outbound streaming cap ({@code stream_throughput_outbound}, Cassandra's key; live
 * with {@code nodetool setstreamthroughput}): every streamed batch, for repair, bootstrap,
 * decommission or a replacement, takes its bytes from one schedule, so flash and the network
 * are spared for requests. 0 bytes per second: unthrottled. Thread-safe.
 */
public final class StreamThrottle {
  private volatile long bytesPerSecond;
  /** When the next byte may leave (System.nanoTime), guarded by this. */
  private long nextFreeNanos;

  public StreamThrottle(long bytesPerSecond) {
    rate(bytesPerSecond);
  }

  /** Changes the cap at once (also for streams in progress); 0 or less: unthrottled. */
  public void rate(long bytesPerSecond) {
    this.bytesPerSecond = Math.max(0, bytesPerSecond);
  }

  public long rate() {
    return bytesPerSecond;
  }

  /** Waits until {@code byteCount} more bytes fit the cap. */
  public void acquire(long byteCount) throws InterruptedException {
    long rate = bytesPerSecond;
    if (rate <= 0 || byteCount <= 0) {
      return;
    }
    long waitNanos;
    synchronized (this) {
      long now = System.nanoTime();
      // An idle period does not build up credit beyond one batch: a burst after a pause stays capped.
      if (nextFreeNanos < now) {
        nextFreeNanos = now;
      }
      waitNanos = nextFreeNanos - now;
      nextFreeNanos += (long) (byteCount * 1e9 / rate);
    }
    if (waitNanos > 0) {
      Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
    }
  }
}
