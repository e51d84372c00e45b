package io.cassette.storage.io;

import io.cassette.storage.StorageException;
import java.util.Map;

/** Chooses a codec from a table's Cassandra-style {@code compression} map, or an on-disk id. */
public final class Compressors {
  public static final Compressor NONE = new NoCompressor();
  public static final Compressor LZ4 = new Lz4Compressor();
  public static final Compressor SNAPPY = new SnappyCompressor();
  public static final Compressor DEFLATE = new DeflateCompressor();

  /** Cassandra's default {@code chunk_length_in_kb}. */
  public static final int DEFAULT_CHUNK_LENGTH = 16 * 1024;
  /** Largest chunk accepted: chunk positions keep the offset inside a chunk in 20 bits. */
  public static final int MAX_CHUNK_LENGTH = 1 << 19;

  private Compressors() {}

  public static Compressor byId(int id) {
    return switch (id) {
      case 0 -> NONE;
      case 1 -> LZ4;
      case 2 -> SNAPPY;
      case 3 -> DEFLATE;
      default -> throw new StorageException("unknown compressor id: " + id + " (expected: 0..3)");
    };
  }

  /** The codec named by {@code class} (with or without the Cassandra package prefix). */
  public static Compressor forOptions(Map<String, String> options) {
    if ("false".equalsIgnoreCase(options.getOrDefault("enabled", "true"))) {
      return NONE;
    }
    String cls = options.getOrDefault("class", options.getOrDefault("sstable_compression", "LZ4Compressor"));
    if (cls.isEmpty()) {
      return NONE;
    }
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    return switch (simple) {
      case "LZ4Compressor" -> LZ4;
      case "SnappyCompressor" -> SNAPPY;
      case "DeflateCompressor" -> DEFLATE;
      case "NoopCompressor", "NoCompressor" -> NONE;
      default -> throw new StorageException("unknown compression class: " + cls
          + " (expected: LZ4Compressor, SnappyCompressor, DeflateCompressor or NoopCompressor)");
    };
  }

  /** {@code chunk_length_in_kb} (or the older {@code chunk_length_kb}) in bytes. */
  public static int chunkLength(Map<String, String> options) {
    String kb = options.getOrDefault("chunk_length_in_kb", options.get("chunk_length_kb"));
    if (kb == null) {
      return DEFAULT_CHUNK_LENGTH;
    }
    int bytes;
    try {
      bytes = Integer.parseInt(kb.trim()) * 1024;
    } catch (NumberFormatException e) {
      throw new StorageException("chunk_length_in_kb: " + kb + " (expected: a power of 2)");
    }
    if (bytes <= 0 || Integer.bitCount(bytes) != 1 || bytes > MAX_CHUNK_LENGTH) {
      throw new StorageException("chunk_length_in_kb: " + kb + " (expected: a power of 2 <= "
          + (MAX_CHUNK_LENGTH / 1024) + ")");
    }
    return bytes;
  }
}
