package io.cassette.coordinator.metadata;

/**
 * A metadata change could not be committed because the replicated metadata log cannot order
 * it now (no quorum of the metadata service, no leader yet). The message is for the client as
 * is ("metadata service unavailable: no quorum (1 of 3 members reachable)"); the outcome is
 * unknown: the change may still apply when a majority returns. Reads and writes go on.
 */
public final class MetadataUnavailableException extends RuntimeException {
  public MetadataUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
