package io.cassette.server.ring;

import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.coordinator.metadata.MetadataConflictException;
import io.cassette.coordinator.metadata.MetadataEntry;
import io.cassette.coordinator.metadata.MetadataEntryCodec;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.coordinator.metadata.MetadataUnavailableException;
import io.cassette.metadata.Epoch;
import io.cassette.metadata.MetadataRejectedException;
import io.cassette.metadata.MetadataService;
import io.cassette.metadata.SchemaEntry;
import io.cassette.metadata.Transformation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's schema log ({@link MetadataLog}) on the ring's replicated metadata
 * service: a schema change is one {@code SCHEMA} transformation whose bytes are the
 * {@link MetadataEntryCodec} entry, ordered by Raft with every other change of the cluster.
 *
 * <p>Schema epochs here are the positions of the SCHEMA entries in the cluster log (1, 2, 3
 * ...: contiguous, as the interface requires), not the cluster epochs, which also count
 * joins. Every node applies every SCHEMA entry, whoever committed it: storage tables are
 * created, altered and dropped on each node ({@code applier}), then listeners (the CQL
 * schema) are told. A change carries the cluster schema epoch it was computed from, so of two
 * concurrent DDL statements the second is refused ({@link MetadataConflictException}) and
 * checked again by its caller instead of overwriting the first.
 *
 * <p>Thread-safety: entries are applied on the metadata service's applying thread under this
 * object's lock; {@link #commit} blocks its caller until the entry is applied here.
 */
final class RingMetadataLog implements MetadataLog {
  private static final Logger LOG = LoggerFactory.getLogger(RingMetadataLog.class);
  /** A commit waits this long beyond the service's own commit timeout for its entry to apply here. */
  private static final long APPLY_SLACK_MILLIS = 5_000;
  /** Beyond the service's commit timeout, for its own reachability probe and the reply. */
  private static final long COMMIT_SLACK_MILLIS = 2_000;

  private final MetadataService service;
  private final BiConsumer<ClusterMetadata, ClusterMetadata> applier;
  private final List<BiConsumer<MetadataEntry, ClusterMetadata>> listeners = new CopyOnWriteArrayList<>();
  private final List<SchemaChangeListener> remoteListeners = new CopyOnWriteArrayList<>();
  /** Entry bytes this node is committing now, to tell its own entries from other nodes'. */
  private final java.util.Set<java.nio.ByteBuffer> committing = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Told of schema entries committed by other nodes (the CQL door announces them to its clients). */
  interface SchemaChangeListener {
    void onRemoteChange(ClusterMetadata before, ClusterMetadata after);
  }
  /** Cluster epoch of each applied schema entry: index i holds schema epoch i + 1. Guarded by this. */
  private final List<Epoch> clusterEpochs = new ArrayList<>();
  private volatile ClusterMetadata current = ClusterMetadata.EMPTY;

  private RingMetadataLog(MetadataService service, BiConsumer<ClusterMetadata, ClusterMetadata> applier) {
    this.service = service;
    this.applier = applier;
  }

  /**
   * Follows {@code service} from now on and folds what it already holds (its cached
   * snapshot, on a restart), making storage match it once.
   */
  static RingMetadataLog open(MetadataService service, BiConsumer<ClusterMetadata, ClusterMetadata> applier) {
    RingMetadataLog log = new RingMetadataLog(service, applier);
    service.addListener((previous, next, applied) -> log.advance(next.schema()));
    log.advance(service.current().schema());
    return log;
  }

  /** Applies the schema entries after those already applied; idempotent, in order. */
  private synchronized void advance(List<SchemaEntry> schema) {
    for (int i = clusterEpochs.size(); i < schema.size(); i++) {
      SchemaEntry s = schema.get(i);
      MetadataEntry decoded = MetadataEntryCodec.decode(s.payload(), "cluster " + s.epoch());
      MetadataEntry entry = new MetadataEntry(i + 1L, decoded.change());
      ClusterMetadata before = current;
      ClusterMetadata after = before.apply(entry);
      try {
        applier.accept(before, after);
      } catch (RuntimeException e) {
        // The entry is in the cluster's log: this node follows it even if storage complained.
        LOG.error("Schema change at {} could not be applied to local storage: {}", s.epoch(), e.toString());
      }
      clusterEpochs.add(s.epoch());
      current = after;
      if (!committing.remove(java.nio.ByteBuffer.wrap(s.payload()))) {
        for (SchemaChangeListener l : remoteListeners) {
          try {
            l.onRemoteChange(before, after);
          } catch (RuntimeException e) {
            LOG.error("Remote schema listener failed at {}", s.epoch(), e);
          }
        }
      }
      for (BiConsumer<MetadataEntry, ClusterMetadata> l : listeners) {
        try {
          l.accept(entry, after);
        } catch (RuntimeException e) {
          LOG.error("Schema listener failed at {}", s.epoch(), e);
        }
      }
      notifyAll();
    }
  }

  @Override
  public ClusterMetadata current() {
    return current;
  }

  /** Unconditional: the change replaces whatever keyspaces it names (Redis' idempotent puts). */
  @Override
  public ClusterMetadata commit(MetadataChange change) {
    return commit(change, null);
  }

  @Override
  public ClusterMetadata commit(MetadataChange change, long expectedEpoch) {
    Epoch expected;
    synchronized (this) {
      if (expectedEpoch != current.epoch()) {
        throw conflict("the schema moved from version " + expectedEpoch + " to " + current.epoch());
      }
      expected = expectedEpoch == 0 ? Epoch.EMPTY : clusterEpochs.get((int) expectedEpoch - 1);
    }
    return commit(change, expected);
  }

  private ClusterMetadata commit(MetadataChange change, Epoch expectedSchemaEpoch) {
    byte[] bytes = MetadataEntryCodec.encode(new MetadataEntry(current.epoch() + 1, change));
    // The service fails a commit itself after its commit timeout (with the reason); this only
    // bounds a service that never answers.
    long timeout = service.config().tuning().commitTimeout().toMillis() + COMMIT_SLACK_MILLIS;
    io.cassette.metadata.ClusterMetadata applied;
    java.nio.ByteBuffer mine = java.nio.ByteBuffer.wrap(bytes);
    committing.add(mine);
    try {
      applied = service.commit(Transformation.schema(kindOf(change), bytes, expectedSchemaEpoch))
          .get(timeout, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MetadataUnavailableException("metadata service unavailable: interrupted", e);
    } catch (TimeoutException e) {
      throw new MetadataUnavailableException("metadata service unavailable: no answer within " + timeout + " ms", e);
    } catch (ExecutionException | CompletionException e) {
      committing.remove(mine);
      Throwable cause = e;
      while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof MetadataRejectedException r) {
        if (r.getMessage() != null && r.getMessage().contains("schema changed concurrently")) {
          awaitSchema(service.current().schema().size());
          throw conflict(r.getMessage());
        }
        throw new IllegalStateException("schema change refused by the metadata service: " + r.getMessage(), r);
      }
      String message = cause.getMessage() != null && cause.getMessage().startsWith("metadata service unavailable")
          ? cause.getMessage() : "metadata service unavailable: " + cause;
      throw new MetadataUnavailableException(message, cause);
    }
    // The service has applied it here; wait for our own listener to have folded it too.
    awaitSchema(applied.schema().size());
    return current;
  }

  /** Waits (bounded) until this log has applied {@code schemaEntries} entries. */
  private synchronized void awaitSchema(int schemaEntries) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(APPLY_SLACK_MILLIS);
    while (clusterEpochs.size() < schemaEntries) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        throw new MetadataUnavailableException("metadata service unavailable: schema entry "
            + schemaEntries + " committed but not applied here within " + APPLY_SLACK_MILLIS + " ms", null);
      }
      try {
        wait(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MetadataUnavailableException("metadata service unavailable: interrupted", e);
      }
    }
  }

  private static MetadataConflictException conflict(String why) {
    return new MetadataConflictException("schema changed concurrently on another node (" + why + ")");
  }

  private static String kindOf(MetadataChange change) {
    return change.drop().isEmpty() ? "PUT" : change.put().isEmpty() ? "DROP" : "PUT_DROP";
  }

  void listenRemote(SchemaChangeListener listener) {
    remoteListeners.add(listener);
  }

  @Override
  public void listen(BiConsumer<MetadataEntry, ClusterMetadata> listener) {
    listeners.add(listener);
  }
}
