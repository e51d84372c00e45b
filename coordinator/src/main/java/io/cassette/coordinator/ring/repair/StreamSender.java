package io.cassette.coordinator.ring.repair;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.ring.Range;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.partition.PartitionSerializer;
import io.cassette.storage.io.ByteArrayWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One direction of a sync: streams what this node holds of some token ranges of a table to a
 * peer, as {@link StreamBatch}es of whole partitions, unfiltered (rows with their timestamps,
 * tombstones), one batch in flight. The peer verifies each batch's checksum and applies it as an
 * ordinary write, so last-write-wins reconciles it with what the peer has. A batch that is not
 * acknowledged (lost, refused as damaged, peer overloaded) is sent again up to
 * {@link #MAX_ATTEMPTS} times; applying a batch twice is harmless (same cells, same timestamps).
 */
final class StreamSender {
  private static final Logger LOG = LoggerFactory.getLogger(StreamSender.class);
  /** A batch is sent once it holds this many bytes (the message limit is 2 MiB by default). */
  static final int BATCH_BYTES = 256 << 10;
  /** Attempts per batch before the sync fails. */
  static final int MAX_ATTEMPTS = 4;
  /** How long one batch may take to be applied and acknowledged, by default. */
  static final long BATCH_TIMEOUT_MILLIS = 30_000;
  private static final Request ONE = Request.of(ConsistencyLevel.ONE);

  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final StreamThrottle throttle;
  private final StreamProgress progress;
  private volatile long batchTimeoutMillis = BATCH_TIMEOUT_MILLIS;

  StreamSender(LocalCoordinator local, MessagingService messaging, StreamThrottle throttle, StreamProgress progress) {
    this.local = local;
    this.messaging = messaging;
    this.throttle = throttle;
    this.progress = progress;
  }

  /** How long a batch may wait for its acknowledgement before it is sent again. */
  void batchTimeout(long millis) {
    this.batchTimeoutMillis = millis;
  }

  /** Streams {@code r.ranges()} of the table to {@code r.peer()}; throws when a batch cannot be delivered. */
  RepairMessages.SyncResult stream(RepairMessages.SyncRequest r) {
    return stream(r, "Repair");
  }

  /** As above; {@code purpose} names the stream in netstats ("Repair", "Bootstrap", "Unbootstrap"...). */
  RepairMessages.SyncResult stream(RepairMessages.SyncRequest r, String purpose) {
    StreamProgress.Outgoing o = progress.start(purpose, r.peer(), r.keyspace(), r.table());
    try {
      return stream(r, o);
    } finally {
      progress.finish(o);
    }
  }

  private RepairMessages.SyncResult stream(RepairMessages.SyncRequest r, StreamProgress.Outgoing o) {
    InetSocketAddress peer = messaging.peer(r.peer());
    List<PartitionUpdate> batch = new ArrayList<>();
    ByteArrayWriter sizer = new ByteArrayWriter(1024);
    long batchBytes = 0;
    long[] counts = new long[5]; // partitions, rows, bytes, batches, retries
    for (Range range : r.ranges()) {
      try (Table.CloseableIterator<PartitionUpdate> it = local.scanUnfiltered(r.keyspace(), r.table(),
          KeyRange.tokens(range.start(), range.end()), ReadQuery.all(r.nowInSeconds()), ONE)) {
        while (it.hasNext()) {
          PartitionUpdate u = it.next();
          sizer.reset();
          PartitionSerializer.writeUpdateBody(sizer, u);
          batch.add(u);
          batchBytes += sizer.length();
          counts[0]++;
          counts[1] += u.rows().size();
          if (batchBytes >= BATCH_BYTES) {
            long sent = send(peer, (int) counts[3]++, batch, counts);
            counts[2] += sent;
            progress.sent(o, sent, batch.size());
            batch.clear();
            batchBytes = 0;
          }
        }
      }
    }
    if (!batch.isEmpty()) {
      long sent = send(peer, (int) counts[3]++, batch, counts);
      counts[2] += sent;
      progress.sent(o, sent, batch.size());
    }
    return new RepairMessages.SyncResult(counts[0], counts[1], counts[2], counts[3], counts[4]);
  }

  /** Sends one batch until acknowledged; returns its size in bytes. */
  private long send(InetSocketAddress peer, int sequence, List<PartitionUpdate> batch, long[] counts) {
    byte[] payload = StreamBatch.encode(sequence, batch);
    Exception last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt > 1) {
        counts[4]++;
        sleep(100L << attempt);
      }
      try {
        throttle.acquire(payload.length);
        messaging.sendWithCallback(peer, Message.out(Verb.REPAIR_STREAM_REQ, payload)
                .withTimeoutMillis((int) batchTimeoutMillis))
            .get(batchTimeoutMillis + 1_000, TimeUnit.MILLISECONDS);
        return payload.length;
      } catch (ExecutionException e) {
        last = e.getCause() instanceof Exception c ? c : e;
        LOG.info("repair stream batch {} to {} failed (attempt {} of {}): {}", sequence, peer, attempt,
            MAX_ATTEMPTS, last.toString());
      } catch (TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RepairException("interrupted while streaming to " + peer);
      }
    }
    throw new RepairException("streaming to " + peer.getAddress().getHostAddress() + " failed after "
        + MAX_ATTEMPTS + " attempts of batch " + sequence + ": " + last);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RepairException("interrupted while streaming");
    }
  }
}
