package io.cassette.metadata;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A metadata log held in one process, without Raft or persistence: for tests of the layers
 * above (coordinator, CQL schema) and for tools. Same ordering and rejection rules as the
 * replicated log, since both apply {@link Transformations}.
 */
public final class LocalMetadataLog implements MetadataLog {
    private final MetadataPublisher publisher = new MetadataPublisher();

    @Override
    public ClusterMetadata current() {
        return publisher.current();
    }

    @Override
    public synchronized CompletableFuture<ClusterMetadata> commit(Transformation t) {
        ApplyResult r = Transformations.apply(publisher.current(), t);
        if (r instanceof ApplyResult.Rejected rej) return CompletableFuture.failedFuture(new MetadataRejectedException(rej.reason()));
        ClusterMetadata next = ((ApplyResult.Applied) r).metadata();
        publisher.publish(next, t);
        return CompletableFuture.completedFuture(next);
    }

    @Override
    public CompletableFuture<ClusterMetadata> awaitEpoch(Epoch epoch, Duration timeout) {
        return publisher.await(epoch, timeout);
    }

    @Override
    public void addListener(MetadataListener listener) {
        publisher.addListener(listener);
    }

    @Override
    public void removeListener(MetadataListener listener) {
        publisher.removeListener(listener);
    }
}
