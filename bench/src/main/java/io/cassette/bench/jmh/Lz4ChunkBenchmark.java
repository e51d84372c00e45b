package io.cassette.bench.jmh;

import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.Compressor;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.partition.PartitionSerializer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding one 16 KiB SSTable chunk with the LZ4 codec the engine uses, and with lz4-java's
 * safe decoder (the engine's decoder before issue 21) for comparison. Two contents:
 * {@code stress}, serialized stress rows (random values: mostly literals), and {@code redis},
 * redis-benchmark-like keys and short repetitive values (mostly matches).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx128m"})
public class Lz4ChunkBenchmark {
  static final int CHUNK = Compressors.DEFAULT_CHUNK_LENGTH;

  @Param({"stress", "redis"})
  public String content;

  /** {@code engine}: the codec SSTable reads use; {@code lz4-java}: lz4-java's pure-Java safe decoder. */
  @Param({"engine", "lz4-java"})
  public String decoder;

  private final net.jpountz.lz4.LZ4SafeDecompressor reference =
      net.jpountz.lz4.LZ4Factory.safeInstance().safeDecompressor();

  private final Compressor lz4 = Compressors.LZ4;
  private byte[] compressed;
  private int compressedLength;
  private byte[] out;

  @Setup
  public void setUp() {
    byte[] chunk = content.equals("stress") ? stressChunk() : redisChunk();
    compressed = new byte[lz4.maxCompressedLength(CHUNK)];
    compressedLength = lz4.compress(chunk, 0, CHUNK, compressed, 0);
    out = new byte[CHUNK];
  }

  static byte[] stressChunk() {
    ByteArrayWriter w = new ByteArrayWriter(CHUNK * 2);
    for (int i = 0; w.length() < CHUNK; i++) {
      var u = StressRows.update(i, 1_700_000_000_000_000L + i);
      w.writeVarInt(u.key().length);
      w.writeBytes(u.key(), 0, u.key().length);
      PartitionSerializer.writeUpdateBody(w, u);
    }
    return java.util.Arrays.copyOf(w.buffer(), CHUNK);
  }

  static byte[] redisChunk() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; b.length() < CHUNK; i++) {
      b.append("key:").append(String.format("%012d", (i * 7919L) % 100_000)).append("\u0001xxx\u0000");
    }
    return java.util.Arrays.copyOf(b.toString().getBytes(StandardCharsets.ISO_8859_1), CHUNK);
  }

  @Benchmark
  public byte[] decode() {
    if (decoder.equals("engine")) {
      lz4.decompress(compressed, 0, compressedLength, out, 0, CHUNK);
    } else {
      reference.decompress(compressed, 0, compressedLength, out, 0, CHUNK);
    }
    return out;
  }
}
