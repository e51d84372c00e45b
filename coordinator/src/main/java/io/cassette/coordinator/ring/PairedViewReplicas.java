package io.cassette.coordinator.ring;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.ring.batchlog.Batchlog;
import io.cassette.coordinator.view.ViewUpdateSink;
import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Cassandra's paired-replica rule for materialized views on a ring: the base replica at index
 * {@code i} of the base token's replica list sends a view update to the view replica at index
 * {@code i} of the view token's list (ViewUtils.getViewNaturalEndpoint), so each view replica
 * hears from one base replica and each base replica sends each update once. When this node is
 * that view replica the update is applied with the base write (one commit-log record); a ring
 * change's pending view replicas get it too.
 *
 * <p>The updates for other nodes are first kept in this node's batch log (Cassandra's
 * StorageProxy.mutateMV: a local batch, never sent to other batch log nodes), before the base
 * write is applied, and removed once every view replica they were sent to acknowledged. A
 * view replica that is down, partitioned or silent also gets a hint; and the batch stays, so
 * the batch log's replay (every round, and after a restart of this node, for batches older
 * than twice the write timeout) writes those updates again to the view replicas. A view update
 * is then lost only if this node loses its disk, as the base write it came from would be.
 * Without a batch log (tests) the hint alone carries it.
 *
 * <p>A base replica not in the base token's list (a write during a ring change) sends to every
 * view replica: more copies, never fewer.
 */
final class PairedViewReplicas implements ViewUpdateSink {
  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final HintSink hints;
  /** Where undelivered view updates wait for replay; null: hints only. */
  private volatile Batchlog batchlog;

  PairedViewReplicas(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring, HintSink hints) {
    this.local = local;
    this.messaging = messaging;
    this.ring = ring;
    this.hints = hints;
  }

  /** Keeps the view updates for other nodes in {@code log} until they are acknowledged (null: not kept). */
  void batchlog(Batchlog log) {
    this.batchlog = log;
  }

  private record Send(Endpoint to, PartitionUpdate update) {}

  @Override
  public List<PartitionUpdate> route(PartitionUpdate baseUpdate, List<PartitionUpdate> viewUpdates) {
    TokenRing r = ring.get();
    ReplicationStrategy strategy = local.strategy(baseUpdate.keyspace());
    if (strategy instanceof LocalStrategy) {
      return viewUpdates;
    }
    int index = r.replicas(Murmur3Token.of(baseUpdate.key()), strategy).indexOf(r.self());
    List<PartitionUpdate> mine = new ArrayList<>();
    List<Send> sends = new ArrayList<>();
    List<PartitionUpdate> remote = new ArrayList<>();
    for (PartitionUpdate v : viewUpdates) {
      long token = Murmur3Token.of(v.key());
      List<Endpoint> viewReplicas = r.replicas(token, strategy);
      List<Endpoint> targets = new ArrayList<>();
      if (index >= 0 && index < viewReplicas.size()) {
        targets.add(viewReplicas.get(index));
      } else {
        targets.addAll(viewReplicas);
      }
      for (Endpoint e : r.pending(token, strategy)) {
        if (!targets.contains(e)) {
          targets.add(e);
        }
      }
      boolean elsewhere = false;
      for (Endpoint to : targets) {
        if (to.equals(r.self())) {
          mine.add(v);
        } else {
          sends.add(new Send(to, v));
          elsewhere = true;
        }
      }
      if (elsewhere) {
        remote.add(v);
      }
    }
    if (!sends.isEmpty()) {
      Batchlog log = batchlog;
      // In the batch log before the base write is applied and acknowledged (fsynced first in batch mode).
      Pending batch = log == null ? null : new Pending(log, log.storeLocal(remote), sends.size());
      for (Send s : sends) {
        send(r, s.to(), s.update(), batch);
      }
    }
    return mine;
  }

  /** A local batch of view updates, removed when every send of it was acknowledged. */
  private static final class Pending {
    private final Batchlog log;
    private final UUID id;
    private final AtomicInteger unacknowledged;

    Pending(Batchlog log, UUID id, int sends) {
      this.log = log;
      this.id = id;
      this.unacknowledged = new AtomicInteger(sends);
    }

    void acknowledged() {
      if (unacknowledged.decrementAndGet() == 0) {
        log.removeLocal(id);
      }
    }
  }

  private void send(TokenRing r, Endpoint to, PartitionUpdate v, Pending batch) {
    Mutation m = new Mutation(List.of(v));
    if (!r.isAlive(to)) {
      hints.store(to, m); // the batch stays: replayed once it is older than twice the write timeout
      return;
    }
    CompletableFuture<Message> f;
    try {
      f = messaging.sendWithCallback(messaging.peer(to.address()),
          Message.out(Verb.MUTATION_REQ, RingCodec.mutation(m.updates())));
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    f.whenComplete((ok, ex) -> {
      if (ex != null) {
        hints.store(to, m); // no acknowledgement: hinted handoff delivers it when the replica is back
      } else if (batch != null) {
        batch.acknowledged();
      }
    });
  }
}
