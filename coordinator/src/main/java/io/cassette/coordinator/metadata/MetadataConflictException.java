package io.cassette.coordinator.metadata;

/**
 * A change was checked against a snapshot that another node's change has since replaced
 * (concurrent DDL on two nodes). Nothing was appended; the caller waits for the newer
 * snapshot ({@link MetadataLog#current()} shows it when this is thrown), checks its change
 * again and retries.
 */
public final class MetadataConflictException extends RuntimeException {
  public MetadataConflictException(String message) {
    super(message);
  }
}
