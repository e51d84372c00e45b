package io.cassette.coordinator.ring;

import io.cassette.cluster.net.MessageFilters;
import io.cassette.cluster.net.MessagingConfig;
import io.cassette.cluster.net.MessagingService;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Several ring nodes in one JVM, on 127.0.0.1 .. 127.0.0.N sharing one random storage port:
 * each with its own {@link Engine} in a directory of its own, a {@link LocalCoordinator}, a
 * {@link MessagingService} (one {@link MessageFilters} shared by all) and a
 * {@link RingCoordinator} over a static {@link TokenRing} (tokens from a seeded random, so
 * ownership is the same on every run). There is no metadata service here: {@link #schema}
 * commits a keyspace on every node, and liveness is set by {@link #markDown}. Close it to
 * stop every node.
 */
public final class RingHarness implements AutoCloseable {
  /** One node of the harness. */
  public record Node(int index, Endpoint endpoint, Engine engine, LocalCoordinator local,
                     MessagingService messaging, RingCoordinator coordinator) {}

  private final List<Node> nodes = new ArrayList<>();
  private final List<AtomicReference<TokenRing>> views = new ArrayList<>();
  private final List<Endpoint> endpoints = new ArrayList<>();
  private final List<List<Long>> tokens = new ArrayList<>();
  private final Set<Endpoint> down = new HashSet<>();
  /** Per viewer: nodes only that node's failure detector calls DOWN (views that disagree). */
  private final java.util.Map<Integer, Set<Endpoint>> downFor = new java.util.HashMap<>();
  private final MessageFilters filters = new MessageFilters();
  private final long[] epochs;
  /** Epochs the nodes were asked to catch up to, in order: node index and epoch. */
  private final List<long[]> catchUps = new java.util.concurrent.CopyOnWriteArrayList<>();
  private boolean closed;
  /** A node whose join is STARTED: its tokens are in the future ring only (-1: none). */
  private int joining = -1;
  /** A node outside the ring (not yet joined): no tokens now or in a future ring (-1: none). */
  private int absent = -1;
  /** Hints the coordinators left (what a {@link HintSink} was asked to store), in order. */
  private final List<Hint> hints = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile boolean acceptHints = true;

  /** A hint a coordinator asked to store: which node asked, for which replica, what. */
  public record Hint(int coordinator, Endpoint target, io.cassette.storage.Mutation mutation) {}

  /**
   * @param dir    a directory for the nodes' data (node i in {@code dir/node<i>})
   * @param tweak  may change each node's messaging config (e.g. shorter timeouts)
   */
  public RingHarness(Path dir, int n, int tokensPerNode, UnaryOperator<MessagingConfig.Builder> tweak) {
    epochs = new long[n];
    java.util.Arrays.fill(epochs, 1);
    Random random = new Random(42);
    Set<Long> used = new HashSet<>();
    for (int i = 0; i < n; i++) {
      endpoints.add(new Endpoint(new UUID(0, i + 1), address(i)));
      List<Long> mine = new ArrayList<>();
      while (mine.size() < tokensPerNode) {
        long t = random.nextLong();
        if (t != Long.MIN_VALUE && used.add(t)) {
          mine.add(t);
        }
      }
      tokens.add(mine);
    }
    for (int i = 0; i < n; i++) {
      views.add(new AtomicReference<>(build(i)));
    }
    RuntimeException last = null;
    for (int attempt = 0; attempt < 20 && nodes.isEmpty(); attempt++) {
      int port = ThreadLocalRandom.current().nextInt(10_000, 32_000); // below the ephemeral range (32768+): a client socket cannot take it
      List<MessagingService> started = new ArrayList<>();
      try {
        for (int i = 0; i < n; i++) {
          AtomicReference<TokenRing> view = views.get(i);
          MessagingService ms = new MessagingService(tweak.apply(MessagingConfig.builder(address(i))
              .storagePort(port).hostId(endpoints.get(i).hostId()).epoch(() -> view.get().epoch())
              .reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(200))
              .connectTimeout(Duration.ofSeconds(1))).build());
          ms.useFilters(filters);
          started.add(ms);
          ms.start();
        }
      } catch (IllegalStateException e) {
        last = e;
        started.forEach(MessagingService::stop);
        continue;
      }
      for (int i = 0; i < n; i++) {
        Path data = dir.resolve("node" + (i + 1));
        try {
          Files.createDirectories(data);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        Engine engine = Engine.open(EngineOptions.defaults(data));
        LocalCoordinator local = LocalCoordinator.open(engine, null);
        AtomicReference<TokenRing> view = views.get(i);
        int index = i;
        // Catching up here is instant: the harness's metadata is static, only the epoch moves.
        HintSink sink = (target, mutation) -> {
          hints.add(new Hint(index, target, mutation));
          return acceptHints;
        };
        RingCoordinator rc = new RingCoordinator(local, started.get(i), view::get, e -> {
          catchUps.add(new long[] {index, e});
          setEpoch(index, e);
          return CompletableFuture.completedFuture(null);
        }, sink);
        rc.registerHandlers();
        nodes.add(new Node(i, endpoints.get(i), engine, local, started.get(i), rc));
      }
    }
    if (nodes.isEmpty()) {
      throw last;
    }
  }

  public RingHarness(Path dir, int n) {
    this(dir, n, 16, b -> b);
  }

  public static InetAddress address(int index) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (index + 1)});
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  public Node node(int index) {
    return nodes.get(index);
  }

  public int size() {
    return nodes.size();
  }

  public MessageFilters filters() {
    return filters;
  }

  /** Node {@code index}'s ring. */
  public TokenRing ring(int index) {
    return views.get(index).get();
  }

  /** The index of the node owning {@code token}. */
  public int ownerIndex(long token) {
    return endpoints.indexOf(ring(0).owner(token));
  }

  /** Commits {@code keyspace} to every node's metadata log (the harness has no metadata service). */
  public void schema(KeyspaceDefinition keyspace) {
    for (Node n : nodes) {
      n.local().metadata().commit(MetadataChange.put(keyspace));
    }
  }

  /**
   * Waits (bounded, 60 s) until every node reaches every other: a read of {@code keyspace.table}
   * at ALL through each node succeeds. The first test of a fresh JVM on a loaded machine can
   * start before the internode handshakes finish; one that takes over the harness's 1 s connect
   * timeout is dropped and retried, and a request meanwhile hears only its own replica (the
   * lagging-clock test's intermittent "received only 1 responses": it runs first in PaxosRingTest).
   */
  public void awaitConnected(String keyspace, String table) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    io.cassette.coordinator.Request all = new io.cassette.coordinator.Request(
        io.cassette.coordinator.ConsistencyLevel.ALL, io.cassette.coordinator.ConsistencyLevel.SERIAL,
        Duration.ofSeconds(5), null);
    for (Node n : nodes) {
      while (true) {
        try {
          n.coordinator().read(keyspace, table, "warm-up".getBytes(java.nio.charset.StandardCharsets.UTF_8),
              io.cassette.storage.ReadQuery.all(0), all);
          break;
        } catch (io.cassette.coordinator.CoordinatorException e) {
          if (System.nanoTime() - deadline > 0) {
            throw e;
          }
          java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
      }
    }
  }

  /** Moves node {@code index}'s ring to metadata epoch {@code epoch} (its messages carry it). */
  public synchronized void setEpoch(int index, long epoch) {
    epochs[index] = epoch;
    views.get(index).set(build(index));
  }

  /** The hints asked for so far (the harness records them; it replays nothing). */
  public List<Hint> hints() {
    return hints;
  }

  /** Whether the harness's hint sinks answer "stored" (default) or "not stored". */
  public void acceptHints(boolean accept) {
    this.acceptHints = accept;
  }

  /** The index of a node by endpoint. */
  public int indexOf(Endpoint e) {
    return endpoints.indexOf(e);
  }

  /** The catch-ups the nodes' {@code awaitEpoch} hooks were called for: {node index, epoch}. */
  public List<long[]> catchUps() {
    return catchUps;
  }

  /** What the failure detectors would say: node {@code index} is DOWN (or UP again) for all. */
  public synchronized void markDown(int index, boolean isDown) {
    if (isDown) {
      down.add(endpoints.get(index));
    } else {
      down.remove(endpoints.get(index));
    }
    for (int i = 0; i < views.size(); i++) {
      views.get(i).set(build(i));
    }
  }

  /**
   * Only node {@code viewer}'s failure detector says node {@code index} is DOWN (or UP again):
   * the moment after a partition heals, when the nodes disagree on who is up.
   */
  public synchronized void markDownFor(int viewer, int index, boolean isDown) {
    Set<Endpoint> mine = downFor.computeIfAbsent(viewer, v -> new HashSet<>());
    if (isDown) {
      mine.add(endpoints.get(index));
    } else {
      mine.remove(endpoints.get(index));
    }
    views.get(viewer).set(build(viewer));
  }

  /**
   * Node {@code index} is joining (its join STARTED, as RingNode builds the ring then): it owns
   * no tokens now, and the ring once the join finishes, where it has its tokens, makes it a
   * pending replica of the ranges it takes over.
   */
  public synchronized void joining(int index) {
    joining = index;
    absent = -1;
    for (int i = 0; i < views.size(); i++) {
      views.get(i).set(build(i));
    }
  }

  /** Node {@code index} is outside the ring (before its join): it owns no tokens, now or pending. */
  public synchronized void absent(int index) {
    absent = index;
    joining = -1;
    for (int i = 0; i < views.size(); i++) {
      views.get(i).set(build(i));
    }
  }

  /** The join of {@link #joining} finished: every node owns its tokens. */
  public synchronized void joined() {
    joining = -1;
    absent = -1;
    for (int i = 0; i < views.size(); i++) {
      views.get(i).set(build(i));
    }
  }

  private TokenRing build(int self) {
    if (absent >= 0) {
      return ringOf(self, absent).build();
    }
    TokenRing.Builder b = ringOf(self, joining);
    return joining < 0 ? b.build() : b.future(ringOf(self, -1).build()).build();
  }

  private TokenRing.Builder ringOf(int self, int without) {
    TokenRing.Builder b = TokenRing.builder(epochs[self], endpoints.get(self));
    Set<Endpoint> mine = downFor.getOrDefault(self, Set.of());
    for (int i = 0; i < endpoints.size(); i++) {
      if (i != without) {
        b.add(endpoints.get(i), "datacenter1", "rack1", tokens.get(i));
      }
      b.alive(endpoints.get(i), !down.contains(endpoints.get(i)) && !mine.contains(endpoints.get(i)));
    }
    return b;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Node n : nodes) {
      n.messaging().stop();
    }
    for (Node n : nodes) {
      n.engine().close();
    }
  }
}
