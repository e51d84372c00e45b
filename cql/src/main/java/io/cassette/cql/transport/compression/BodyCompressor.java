package io.cassette.cql.transport.compression;

import io.netty.buffer.ByteBuf;

/**
 * Compression of whole frame bodies, as protocol v3/v4 negotiate it in STARTUP
 * ({@code COMPRESSION}: {@code lz4} or {@code snappy}). v5 compresses segments instead (LZ4 only).
 *
 * <p>Thread-safety: implementations are stateless and shared by all connections.
 */
public interface BodyCompressor {
  /** The name a client puts in STARTUP. */
  String name();

  /** Compresses the readable bytes of {@code body}; does not release it. */
  ByteBuf compress(ByteBuf body);

  /**
   * Decompresses the readable bytes of {@code body}; does not release it.
   *
   * @throws CompressionException when the bytes are not a valid compressed body, or would
   *     decompress to more than {@code maxLength} bytes
   */
  ByteBuf decompress(ByteBuf body, int maxLength);

  /** Returns the compressor for a STARTUP name (case-insensitive), or null if unknown. */
  static BodyCompressor forName(String name) {
    if (name == null) {
      return null;
    }
    return switch (name.toLowerCase(java.util.Locale.ROOT)) {
      case "lz4" -> Lz4BodyCompressor.INSTANCE;
      case "snappy" -> SnappyBodyCompressor.INSTANCE;
      default -> null;
    };
  }
}
