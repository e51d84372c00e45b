package io.cassette.resp.ring;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.Fence;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.WriteFence;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fenced executors (replication factor above 1): before this node executes a key, it holds a
 * lease on the key's replica list (the range of keys it executes while the replicas before it
 * are DOWN), granted by a majority of those replicas with an epoch that only grows, as a Paxos
 * ballot ({@link LeasePromises} on each replica). Every write of the command carries the epoch
 * ({@link Fence}); a replica that promised a newer one refuses it. So when another node takes a
 * key over (it saw this one DOWN: a pause, a one-way partition), this node's writes stop being
 * acknowledged as soon as the successor has its promises.
 *
 * <p>Three rules make the successor see every acknowledged write and never be overwritten:
 * <ul>
 *   <li>it asks every replica it sees alive and needs every one of them (and a majority) to grant,
 *       so its QUORUM reads only reach replicas that refuse the old epoch from then on (a write
 *       they applied before is among what they answer);
 *   <li>a replica grants a new holder only after the current holder's lease ended (it keeps the
 *       end it granted; a holder that renews keeps its lease, so two nodes that disagree on who
 *       is UP do not take it from each other), and the successor waits past the end the grants
 *       report; the holder stops writing before that end by its own monotonic clock, checked
 *       before every write, so a pause between the check and the write (SIGSTOP) still cannot
 *       make it write after the successor started;
 *   <li>every write's timestamp is at most the lease's end ({@link #check}), so a write of the old
 *       holder that reached a minority (indeterminate: the client got an error) is older than
 *       every write of the successor and never wins over them (last write wins).
 * </ul>
 * Costs: nothing with one replica (not used); with more, one round of grants when a node starts
 * executing a replica list, then a renewal every {@link #leaseMillis}/3 in the background while
 * it is used, never per command. Clocks are assumed within {@link #MARGIN_MILLIS} of each other,
 * as last-write-wins already assumes.
 */
final class ExecutorLeases {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorLeases.class);
  /**
   * How long a grant lasts; a successor waits at most this long after its holder stopped renewing
   * (a holder renews while it used the lease within the last period). Not final: tests shorten it.
   */
  static volatile long leaseMillis = Long.getLong("cassette.redis.lease_millis", 3_000);
  /** Clock difference between nodes and scheduling slack the lease times allow for. */
  static final long MARGIN_MILLIS = 100;
  /** How long a command waits for a lease before it is answered TRYAGAIN. */
  static volatile long acquireMillis = Long.getLong("cassette.redis.lease_acquire_millis", 8_000);
  /** How long one round of grants waits for the replicas' answers. */
  static final int ROUND_MILLIS = 1_000;
  /** Text of a command that found no lease: it did not run. */
  static final String NO_LEASE = "TRYAGAIN this node could not get the lease on the key's replicas (another node may "
      + "be executing the key); the command was not run";
  /** Text of a write refused by this node's own check (the lease ran out, e.g. after a pause): nothing was sent. */
  static final String EXPIRED = "TRYAGAIN this node's lease on the key's replicas ran out before the write; the "
      + "command was not applied";

  private final MessagingService messaging;
  private final Supplier<TokenRing> ring;
  private final LeasePromises promises;
  private final ScheduledExecutorService renewer;
  /** The leases this node holds or held, by id. */
  private final Map<String, Lease> held = new ConcurrentHashMap<>();
  /**
   * Counts the leases won and lost: while it stays put, every lease this node used was held
   * without a gap, so no other node wrote those keys and what was cached of them stays true.
   */
  private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
  /** The newest epoch seen of each lease (grants refused with it, or won). */
  private final Map<String, Long> seen = new ConcurrentHashMap<>();

  /** A lease on one replica list, as its holder sees it; it is also the write fence of its commands. */
  final class Lease implements WriteFence {
    final String id;
    final List<Endpoint> replicas;
    final long epoch;
    final Fence fence;
    /** Monotonic time before which this node may write under the lease (0: lost). */
    volatile long validUntilNanos;
    /** Wall-clock end of the lease as granted: no write may carry a later timestamp. */
    volatile long endMillis;
    /** When a command last used it: unused leases are not renewed. */
    volatile long usedNanos;
    /** A renewal is in flight. */
    volatile boolean renewing;

    Lease(String id, List<Endpoint> replicas, long epoch) {
      this.id = id;
      this.replicas = replicas;
      this.epoch = epoch;
      this.fence = new Fence(id, epoch);
    }

    boolean valid() {
      return System.nanoTime() - validUntilNanos < 0;
    }

    @Override
    public Fence check(long maxMicros) {
      if (!valid() || maxMicros / 1000 >= endMillis) {
        throw new RedisException(EXPIRED);
      }
      return fence;
    }
  }

  ExecutorLeases(MessagingService messaging, Supplier<TokenRing> ring, LeasePromises promises) {
    this.messaging = messaging;
    this.ring = ring;
    this.promises = promises;
    this.renewer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "redis-leases");
      t.setDaemon(true);
      return t;
    });
    renewer.scheduleWithFixedDelay(this::renewAll, leaseMillis / 3, leaseMillis / 3, TimeUnit.MILLISECONDS);
  }

  void close() {
    renewer.shutdownNow();
  }

  /** The lease's name: the replicas' host ids in placement order. */
  static String id(List<Endpoint> replicas) {
    StringBuilder b = new StringBuilder();
    for (Endpoint e : replicas) {
      b.append(b.length() == 0 ? "" : ",").append(e.hostId());
    }
    return b.toString();
  }

  /**
   * The lease under which this node executes keys of {@code replicas} now: the one it holds
   * while valid (no message), else a new epoch granted by every live replica and a majority,
   * after the previous holder's lease ended. Blocks the calling (command) thread meanwhile;
   * throws TRYAGAIN ({@link #NO_LEASE}) when none can be had within {@link #acquireMillis}.
   */
  Lease acquire(List<Endpoint> replicas) {
    String id = id(replicas);
    Lease l = held.get(id);
    long now = System.nanoTime();
    if (l != null && l.valid()) {
      l.usedNanos = now;
      if (l.validUntilNanos - now < TimeUnit.MILLISECONDS.toNanos(leaseMillis / 3)) {
        // The background renewal is late (a loaded machine): renew now rather than let this
        // command's write find the lease run out.
        renew(l, ring.get()).join();
      }
      if (l.valid()) {
        return l;
      }
    }
    long deadline = now + TimeUnit.MILLISECONDS.toNanos(acquireMillis);
    int majority = replicas.size() / 2 + 1;
    while (true) {
      TokenRing r = ring.get();
      List<Endpoint> live = new ArrayList<>();
      for (Endpoint e : replicas) {
        if (r.isAlive(e)) {
          live.add(e);
        }
      }
      long epoch = Math.max(seen.getOrDefault(id, 0L), promises.promised(id)) + 1;
      if (live.size() < majority) {
        throw new RedisException("CLUSTERDOWN The node that owns the key is down or too few of its replicas are up "
            + "(QUORUM: " + majority + " required, " + live.size() + " alive)");
      }
      {
        long sent = System.nanoTime();
        long end = System.currentTimeMillis() + leaseMillis;
        Round round = round(r, live, id, epoch, end).join();
        if (round.granted.size() == live.size()) {
          long wait = round.otherEndMillis + MARGIN_MILLIS - System.currentTimeMillis();
          if (wait > 0 && wait <= 2 * MARGIN_MILLIS) {
            sleep(wait); // the usual case: replicas grant only after the other's end; the margin is left
          } else if (wait > 0) {
            // The previous holder may write until its end: wait it out (it may be paused, or
            // still running in a partition that has not noticed). Its renewals are refused now.
            LOG.info("Redis lease {} epoch {}: waiting {} ms for the previous holder's lease to end", id, epoch, wait);
            sleep(Math.min(wait, leaseMillis + MARGIN_MILLIS));
            sent = System.nanoTime();
            end = System.currentTimeMillis() + leaseMillis;
            round = round(r, live, id, epoch, end).join();
          }
          if (round.granted.size() >= majority) {
            Lease won = new Lease(id, replicas, epoch);
            won.endMillis = end;
            won.validUntilNanos = sent + TimeUnit.MILLISECONDS.toNanos(leaseMillis - MARGIN_MILLIS);
            won.usedNanos = System.nanoTime();
            held.put(id, won);
            changes.incrementAndGet();
            seen.merge(id, epoch, Math::max);
            LOG.debug("Redis lease {} epoch {} granted by {}", id, epoch, round.granted);
            return won;
          }
        }
        seen.merge(id, round.promised, Math::max);
        long wait = round.otherEndMillis + MARGIN_MILLIS - System.currentTimeMillis();
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (wait > 0 && wait < left) {
          sleep(Math.min(wait, leaseMillis + MARGIN_MILLIS)); // another node holds it: ask again when it ends
          continue;
        }
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new RedisException(NO_LEASE);
      }
      sleep(ThreadLocalRandom.current().nextLong(10, 60)); // two contenders: do not collide again at once
    }
  }

  /** {@link #changes}: when it moved, leases were won or lost since the last look. */
  long changes() {
    return changes.get();
  }

  /** The lease this node holds on {@code replicas} if it is valid now, else null (no message). */
  Lease held(List<Endpoint> replicas) {
    Lease l = held.get(id(replicas));
    return l != null && l.valid() ? l : null;
  }

  /** The answers of one round of grants. */
  private static final class Round {
    final Set<Endpoint> granted = new HashSet<>();
    long promised;
    long otherEndMillis;
  }

  /** Asks {@code targets} to grant {@code epoch} of {@code id} until {@code end}; completes within {@link #ROUND_MILLIS}. */
  private CompletableFuture<Round> round(TokenRing r, List<Endpoint> targets, String id, long epoch, long end) {
    Round round = new Round();
    List<CompletableFuture<?>> answers = new ArrayList<>();
    byte[] payload = RedisMessages.lease(id, epoch, end);
    for (Endpoint e : targets) {
      if (e.equals(r.self())) {
        count(round, e, promises.grant(id, epoch, e.address(), end));
        continue;
      }
      CompletableFuture<Message> f;
      try {
        f = messaging.sendWithCallback(messaging.peer(e.address()),
            Message.out(Verb.REDIS_REQ, payload).withTimeoutMillis(ROUND_MILLIS));
      } catch (RuntimeException ex) {
        f = CompletableFuture.failedFuture(ex);
      }
      answers.add(f.handle((m, err) -> {
        if (err == null) {
          try {
            count(round, e, LeasePromises.Answer.decode(RedisMessages.reply(m.payload())));
          } catch (RuntimeException bad) {
            LOG.debug("bad lease answer from {}: {}", e, bad.toString());
          }
        }
        return null;
      }));
    }
    return CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0]))
        .completeOnTimeout(null, ROUND_MILLIS + 200, TimeUnit.MILLISECONDS)
        .thenApply(x -> {
          synchronized (round) {
            Round copy = new Round();
            copy.granted.addAll(round.granted);
            copy.promised = round.promised;
            copy.otherEndMillis = round.otherEndMillis;
            return copy;
          }
        });
  }

  private static void count(Round round, Endpoint from, LeasePromises.Answer a) {
    synchronized (round) {
      if (a.granted()) {
        round.granted.add(from);
      }
      round.promised = Math.max(round.promised, a.promised());
      round.otherEndMillis = Math.max(round.otherEndMillis, a.otherEndMillis());
    }
  }

  /** Renews, in the background, every lease used lately; a refused renewal (a newer epoch promised) loses it. */
  private void renewAll() {
    try {
      long now = System.nanoTime();
      TokenRing r = ring.get();
      for (Lease l : held.values()) {
        if (!l.valid()) {
          held.remove(l.id, l);
          continue;
        }
        if (now - l.usedNanos > TimeUnit.MILLISECONDS.toNanos(leaseMillis) || l.renewing) {
          continue; // not used lately: let it run out
        }
        renew(l, r);
      }
    } catch (RuntimeException e) {
      LOG.warn("Redis lease renewal failed: {}", e.toString());
    }
  }

  /** One renewal round of {@code l} (same epoch, a new end); completes when its answers are counted. */
  private CompletableFuture<Void> renew(Lease l, TokenRing r) {
    List<Endpoint> live = new ArrayList<>();
    for (Endpoint e : l.replicas) {
      if (r.isAlive(e)) {
        live.add(e);
      }
    }
    int majority = l.replicas.size() / 2 + 1;
    if (live.size() < majority) {
      return CompletableFuture.completedFuture(null);
    }
    long sent = System.nanoTime();
    long end = System.currentTimeMillis() + leaseMillis;
    l.renewing = true;
    return round(r, live, l.id, l.epoch, end).handle((round, err) -> {
      l.renewing = false;
      if (err != null) {
        return null;
      }
      if (round.promised > l.epoch) {
        l.validUntilNanos = 0; // another node has a newer epoch: stop at once
        changes.incrementAndGet();
        seen.merge(l.id, round.promised, Math::max);
        LOG.info("Redis lease {} epoch {} lost to epoch {}", l.id, l.epoch, round.promised);
      } else if (round.granted.size() >= majority && l.valid()) {
        l.endMillis = Math.max(l.endMillis, end);
        long until = sent + TimeUnit.MILLISECONDS.toNanos(leaseMillis - MARGIN_MILLIS);
        if (until - l.validUntilNanos > 0) {
          l.validUntilNanos = until;
        }
      }
      return null;
    });
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(Math.max(0, millis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisException(NO_LEASE);
    }
  }
}
