package io.cassette.server.ring;

import io.cassette.cluster.net.TimeoutKind;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.ring.batchlog.Batchlog;
import io.cassette.coordinator.ring.batchlog.BatchlogStore;
import io.cassette.coordinator.ring.hints.HintedHandoff;
import io.cassette.coordinator.ring.hints.HintsConfig;
import io.cassette.coordinator.ring.hints.HintsMetrics;
import io.cassette.metrics.NodeMetrics;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.storage.Mutation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A ring node's write safety nets (issue 16): hinted handoff (hints in {@code hints_directory})
 * and the batch log ({@code <data>/batchlog}), built from the configuration, started once
 * messaging runs, told of liveness changes, closed with the node.
 */
public final class RingWrites implements AutoCloseable {
  /** How often the batch log is replayed (Cassandra: every 10 s). */
  static final Duration BATCHLOG_REPLAY_INTERVAL = Duration.ofSeconds(10);

  private final HintedHandoff hints;
  private final Batchlog batchlog;

  private RingWrites(HintedHandoff hints, Batchlog batchlog) {
    this.hints = hints;
    this.batchlog = batchlog;
  }

  /** The hints settings of {@code config}. */
  public static HintsConfig hintsConfig(Config config) {
    Path dir = config.isSet(ConfigKeys.HINTS_DIRECTORY) ? Path.of(config.string(ConfigKeys.HINTS_DIRECTORY))
        : config.dataDirectory().resolve("hints");
    return new HintsConfig(config.bool(ConfigKeys.HINTED_HANDOFF_ENABLED), dir,
        config.duration(ConfigKeys.MAX_HINT_WINDOW), config.bytes(ConfigKeys.HINTED_HANDOFF_THROTTLE),
        config.integer(ConfigKeys.MAX_HINTS_DELIVERY_THREADS), config.bytes(ConfigKeys.MAX_HINTS_FILE_SIZE),
        config.bytes(ConfigKeys.MAX_HINTS_SIZE_PER_HOST), config.duration(ConfigKeys.HINTS_FLUSH_PERIOD),
        Duration.ofSeconds(10));
  }

  /**
   * Opens the hints and the batch log of {@code ring} (messaging started) and starts them; the
   * batch log replays through {@code coordinator} (the ring's, set before the first replay).
   */
  public static RingWrites start(Config config, RingNode ring, Supplier<Coordinator> coordinator) {
    // Hints expire by their tables' gc_grace_seconds in the schema (unknown before the coordinator is set).
    io.cassette.coordinator.ring.hints.GcGrace gcGrace = (keyspace, table) -> {
      Coordinator c = coordinator.get();
      return c == null ? -1 : c.table(keyspace, table).map(io.cassette.storage.TableSpec::gcGraceSeconds).orElse(-1);
    };
    HintedHandoff hints = new HintedHandoff(hintsConfig(config), ring.messaging(), ring::tokenRing,
        new HintsMetrics(NodeMetrics.global().registry()), gcGrace).start();
    Duration writeTimeout = Duration.ofMillis(ring.messaging().config().timeouts().millis(TimeoutKind.WRITE));
    // The batch log reaches the disk as the commit log does (Cassandra's system.batches goes
    // through it): fsynced per stored batch in batch/group mode, every period in periodic mode.
    long batchlogSyncPeriodMillis = config.string(ConfigKeys.COMMITLOG_SYNC).equals("periodic")
        ? Math.max(1, config.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD).toMillis()) : 0;
    Batchlog batchlog = new Batchlog(new BatchlogStore(config.dataDirectory().resolve("batchlog"),
        System::currentTimeMillis, batchlogSyncPeriodMillis), ring.messaging(), ring::tokenRing, writeTimeout,
        config.bytes(ConfigKeys.BATCHLOG_REPLAY_THROTTLE),
        updates -> coordinator.get().write(new Mutation(updates), Request.of(ConsistencyLevel.ONE)));
    batchlog.registerHandlers();
    batchlog.start(BATCHLOG_REPLAY_INTERVAL);
    ring.onLiveness((hostId, up) -> {
      if (up) {
        hints.onUp(hostId);
      } else {
        hints.onDown(hostId);
      }
    });
    RingWrites writes = new RingWrites(hints.registerHandlers(), batchlog);
    ring.onHandOver(writes::handOver);
    return writes;
  }

  /**
   * Before this node leaves the ring (Cassandra's unbootstrap does both): its batch log is
   * replayed whole (batches whose coordinators may have died would otherwise be lost; a replay
   * of one still in flight writes the same cells again), then its hints go to the nodes they are
   * for, or to a node that stays when theirs is DOWN (a hint that cannot be handed over stops
   * the decommission: it can be run again).
   */
  void handOver(java.util.function.Consumer<String> progress) {
    int replayed = batchlog.replayOlderThan(0);
    // Batches stored since (this node still serves) are in flight: their coordinators remove
    // them, or the other batch log node of each replays them.
    progress.accept("Unbootstrap: replayed " + replayed + " batches of the batch log; " + batchlog.store().size()
        + " left (stored since, or not replayable now: each is also on another batch log node)");
    long hinted = hints.handOver(e -> true, progress);
    progress.accept("Unbootstrap: handed over " + hinted + " hints");
  }

  public HintedHandoff hints() {
    return hints;
  }

  public Batchlog batchlog() {
    return batchlog;
  }

  @Override
  public void close() {
    batchlog.close();
    hints.close();
  }
}
