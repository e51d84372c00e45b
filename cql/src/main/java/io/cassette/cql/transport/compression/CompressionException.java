package io.cassette.cql.transport.compression;

/** Compressed bytes that cannot be decompressed; the message says why. */
public final class CompressionException extends RuntimeException {
  public CompressionException(String message) {
    super(message, null, false, false);
  }
}
