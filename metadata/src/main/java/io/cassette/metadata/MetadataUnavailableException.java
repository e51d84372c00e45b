package io.cassette.metadata;

/**
 * The metadata service could not order a transformation in time, e.g. "metadata service
 * unavailable: no quorum (1 of 3 members reachable)". The outcome is then unknown: if the
 * leader had appended the entry, it may still apply once a majority returns, so a caller
 * that retries should make its change idempotent or check {@code current()} first.
 */
public final class MetadataUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetadataUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
