package io.cassette.metadata;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's published view of the log: the current snapshot, a few recent ones (so a
 * commit can answer with the snapshot at its own epoch), listeners and epoch waiters.
 * Snapshots arrive from one applying thread at a time; publishing is serialised by this
 * object's lock, so listeners see epochs in order.
 */
final class MetadataPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataPublisher.class);
    /** Recent snapshots kept for commit replies; they share most of their parts, so this is cheap. */
    private static final int RECENT_SNAPSHOTS = 32;

    private volatile ClusterMetadata current = ClusterMetadata.EMPTY;
    private final List<MetadataListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<Long, ClusterMetadata> recent = new LinkedHashMap<>(); // guarded by this
    private final TreeMap<Long, List<CompletableFuture<ClusterMetadata>>> waiters = new TreeMap<>(); // guarded by this

    ClusterMetadata current() {
        return current;
    }

    /** Publishes {@code next} if it is newer than the current snapshot; older ones are ignored. */
    synchronized void publish(ClusterMetadata next, Transformation applied) {
        ClusterMetadata previous = current;
        if (next.epoch().compareTo(previous.epoch()) <= 0) return;
        if (applied != null && next.epoch().value() != previous.epoch().value() + 1) applied = null; // a gap: report a jump
        current = next;
        recent.put(next.epoch().value(), next);
        for (Iterator<Long> it = recent.keySet().iterator(); recent.size() > RECENT_SNAPSHOTS; ) {
            it.next();
            it.remove();
        }
        for (MetadataListener l : listeners) {
            try {
                l.onEpoch(previous, next, applied);
            } catch (RuntimeException e) {
                LOG.error("metadata listener {} failed at {}; later epochs are still delivered", l, next.epoch(), e);
            }
        }
        var done = waiters.headMap(next.epoch().value(), true);
        List<CompletableFuture<ClusterMetadata>> ready = new ArrayList<>();
        done.values().forEach(ready::addAll);
        done.clear();
        ready.forEach(f -> f.complete(next));
    }

    /** The snapshot at exactly {@code epoch} if still held, else the current one. */
    synchronized ClusterMetadata at(Epoch epoch) {
        ClusterMetadata m = recent.get(epoch.value());
        return m != null ? m : current;
    }

    synchronized CompletableFuture<ClusterMetadata> await(Epoch epoch, Duration timeout) {
        ClusterMetadata now = current;
        if (now.epoch().compareTo(epoch) >= 0) return CompletableFuture.completedFuture(now);
        CompletableFuture<ClusterMetadata> f = new CompletableFuture<>();
        waiters.computeIfAbsent(epoch.value(), k -> new ArrayList<>()).add(f);
        f.completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS);
        return f.thenCompose(m -> {
            if (m != null) return CompletableFuture.completedFuture(m);
            forget(epoch, f);
            return CompletableFuture.failedFuture(new TimeoutException("waited " + timeout.toMillis()
                    + " ms for " + epoch + "; this node is at " + current.epoch()));
        });
    }

    private synchronized void forget(Epoch epoch, CompletableFuture<ClusterMetadata> f) {
        List<CompletableFuture<ClusterMetadata>> list = waiters.get(epoch.value());
        if (list != null && list.remove(f) && list.isEmpty()) waiters.remove(epoch.value());
    }

    void addListener(MetadataListener l) {
        listeners.add(l);
    }

    void removeListener(MetadataListener l) {
        listeners.remove(l);
    }
}
