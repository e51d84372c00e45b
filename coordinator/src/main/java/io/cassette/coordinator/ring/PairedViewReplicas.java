package io.cassette.coordinator.ring;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.view.ViewUpdateSink;
import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Cassandra's paired-replica rule for materialized views on a ring: the base replica at index
 * {@code i} of the base token's replica list sends a view update to the view replica at index
 * {@code i} of the view token's list (ViewUtils.getViewNaturalEndpoint), so each view replica
 * hears from one base replica and each base replica sends each update once. When this node is
 * that view replica the update is applied with the base write (one commit-log record); a ring
 * change's pending view replicas get it too. A paired replica that is down or does not
 * acknowledge in time gets a hint (the delivery guarantee our hints give: at least once unless
 * this node dies before the hint is stored; Cassandra writes a local batchlog first).
 *
 * <p>A base replica not in the base token's list (a write during a ring change) sends to every
 * view replica: more copies, never fewer.
 */
final class PairedViewReplicas implements ViewUpdateSink {
  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final HintSink hints;

  PairedViewReplicas(LocalCoordinator local, MessagingService messaging, Supplier<TokenRing> ring, HintSink hints) {
    this.local = local;
    this.messaging = messaging;
    this.ring = ring;
    this.hints = hints;
  }

  @Override
  public List<PartitionUpdate> route(PartitionUpdate baseUpdate, List<PartitionUpdate> viewUpdates) {
    TokenRing r = ring.get();
    ReplicationStrategy strategy = local.strategy(baseUpdate.keyspace());
    if (strategy instanceof LocalStrategy) {
      return viewUpdates;
    }
    int index = r.replicas(Murmur3Token.of(baseUpdate.key()), strategy).indexOf(r.self());
    List<PartitionUpdate> mine = new ArrayList<>();
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
      for (Endpoint to : targets) {
        if (to.equals(r.self())) {
          mine.add(v);
        } else {
          send(r, to, v);
        }
      }
    }
    return mine;
  }

  private void send(TokenRing r, Endpoint to, PartitionUpdate v) {
    Mutation m = new Mutation(List.of(v));
    if (!r.isAlive(to)) {
      hints.store(to, m);
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
      }
    });
  }
}
