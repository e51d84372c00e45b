package io.cassette.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.io.DataWriter;
import io.cassette.storage.io.ReadChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-place reads of a chunked file (numbers, strings and compared values read straight
 * from the chunk) give what the plain byte-by-byte reads give, also for values that straddle
 * a chunk boundary: written with tiny chunks so that many do.
 */
class ChunkedFileReaderTest {
  @TempDir
  Path dir;

  private static final String[] NAMES = {"C0", "C1", "key", "", "ünïcode-name", "x".repeat(60)};

  /** A stream of values of every kind the readers decode in place, from a seeded random. */
  private static void write(DataWriter out, int count) {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < count; i++) {
      long big = r.nextLong() >>> r.nextInt(64);
      out.writeLong(big);
      out.writeVarLong(big);
      out.writeVarInt(r.nextInt(1 << r.nextInt(1, 31)));
      out.writeString(NAMES[r.nextInt(NAMES.length)]);
      byte[] v = new byte[r.nextInt(0, 40)];
      r.nextBytes(v);
      out.writeLengthPrefixed(v);
      out.writeLengthPrefixed(v); // read back by comparing
      out.writeInt(r.nextInt());
    }
  }

  private static void readAndCheck(DataReader in, int count) {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < count; i++) {
      long big = r.nextLong() >>> r.nextInt(64);
      assertThat(in.readLong()).isEqualTo(big);
      assertThat(in.readVarLong()).isEqualTo(big);
      assertThat(in.readVarInt()).isEqualTo(r.nextInt(1 << r.nextInt(1, 31)));
      assertThat(in.readString()).isEqualTo(NAMES[r.nextInt(NAMES.length)]);
      byte[] v = new byte[r.nextInt(0, 40)];
      r.nextBytes(v);
      assertThat(in.readLengthPrefixed(1000)).isEqualTo(v);
      byte[] other = v.length == 0 ? new byte[] {1} : Arrays.copyOf(v, v.length);
      if (v.length > 0) {
        other[v.length - 1] ^= (byte) 0x80; // differs in the last byte, with the sign bit
      }
      assertThat(Integer.signum(in.compareLengthPrefixed(other, 1000)))
          .isEqualTo(Integer.signum(Arrays.compareUnsigned(v, other)));
      assertThat(in.readInt()).isEqualTo(r.nextInt());
    }
  }

  @Test
  void inPlaceReadsMatchWhatWasWrittenAcrossChunkBoundaries() throws Exception {
    Path path = dir.resolve("test-Data.db");
    int count = 2_000;
    long length;
    try (ChunkedFileWriter w = new ChunkedFileWriter(path, SSTableDescriptor.DATA_MAGIC, Compressors.LZ4, 61, null)) {
      write(w, count);
      length = w.finish();
    }
    try (ReadChannel ch = new ReadChannel(path)) {
      ChunkedFileReader in = new ChunkedFileReader(path, ch, null, length, Compressors.LZ4, 61);
      try {
        readAndCheck(in, count);
        assertThat(in.atEnd()).isTrue();
      } finally {
        in.close();
      }
    }
  }

  @Test
  void byteArrayReaderReadsTheSame() {
    ByteArrayWriter w = new ByteArrayWriter(64);
    write(w, 500);
    ByteArrayReader in = new ByteArrayReader(w.toByteArray());
    readAndCheck(in, 500);
    assertThat(in.remaining()).isZero();
  }

  @Test
  void aRecentNameIsSharedAndEqualToItsBytes() {
    ByteArrayWriter w = new ByteArrayWriter(64);
    w.writeString("column_a");
    w.writeString("column_a");
    w.writeString("column_b");
    ByteArrayReader in = new ByteArrayReader(w.toByteArray());
    String first = in.readString();
    String second = in.readString();
    assertThat(second).isEqualTo("column_a").isSameAs(first);
    assertThat(in.readString()).isEqualTo("column_b");
    assertThat("column_a".getBytes(StandardCharsets.UTF_8)).isEqualTo(first.getBytes(StandardCharsets.UTF_8));
  }

  /** A file of {@code count} longs, {@code seed + i} each, in chunks of 64 bytes. */
  private long writeLongs(Path path, long seed, int count) {
    try (ChunkedFileWriter w = new ChunkedFileWriter(path, SSTableDescriptor.DATA_MAGIC, Compressors.LZ4, 64, null)) {
      for (int i = 0; i < count; i++) {
        w.writeLong(seed + i);
      }
      return w.finish();
    }
  }

  @Test
  void pooledPointReadersNeverServeOneFileFromAnothersChunkNorTwoReadsAtOnce() throws Exception {
    Path a = dir.resolve("a-Data.db");
    Path b = dir.resolve("b-Data.db");
    long lengthA = writeLongs(a, 1_000, 64);
    long lengthB = writeLongs(b, 9_000, 64);
    ChunkCache cache = new ChunkCache(1 << 20);
    try (ReadChannel chA = new ReadChannel(a); ReadChannel chB = new ReadChannel(b)) {
      for (int round = 0; round < 20; round++) {
        // the same thread alternates files with the same chunk size and the same positions
        ChunkedFileReader ra = ChunkedFileReader.forPointRead(a, chA, null, lengthA, Compressors.LZ4, 64, cache, 2);
        ra.seek(SSTableDescriptor.encodePosition(ChunkedFileWriter.HEADER_SIZE, 0));
        assertThat(ra.readLong()).isEqualTo(1_000);
        ra.close();
        ra.close(); // twice: must not be listed twice
        ChunkedFileReader rb = ChunkedFileReader.forPointRead(b, chB, null, lengthB, Compressors.LZ4, 64, cache, 4);
        ChunkedFileReader rb2 = ChunkedFileReader.forPointRead(b, chB, null, lengthB, Compressors.LZ4, 64, cache, 4);
        assertThat(rb2).isNotSameAs(rb);
        rb.seek(SSTableDescriptor.encodePosition(ChunkedFileWriter.HEADER_SIZE, 0));
        rb2.seek(SSTableDescriptor.encodePosition(ChunkedFileWriter.HEADER_SIZE, 0));
        rb2.skip(8L * round);
        assertThat(rb.readLong()).isEqualTo(9_000);
        assertThat(rb2.readLong()).isEqualTo(9_000 + round);
        rb.close();
        rb2.close();
      }
    }
  }

  /**
   * A point reader decodes a chunk only as far as it reads: records read after seeks in random
   * order (forwards and backwards inside 4 KiB chunks, the chunk kept between reads) are what
   * was written, through every in-place read and the byte-by-byte ones.
   */
  @Test
  void lazilyDecodedChunksReadBackInAnyOrder() throws Exception {
    Path path = dir.resolve("lazy-Data.db");
    int count = 3_000;
    long[] positions = new long[count];
    long length;
    try (ChunkedFileWriter w = new ChunkedFileWriter(path, SSTableDescriptor.DATA_MAGIC, Compressors.LZ4, 4096, null)) {
      for (int i = 0; i < count; i++) {
        write(w, 1 + i % 3);
      }
      length = w.finish();
    }
    try (ReadChannel ch = new ReadChannel(path)) {
      ChunkedFileReader eager = new ChunkedFileReader(path, ch, null, length, Compressors.LZ4, 4096);
      eager.seek(SSTableDescriptor.encodePosition(ChunkedFileWriter.HEADER_SIZE, 0));
      for (int i = 0; i < count; i++) {
        positions[i] = eager.position();
        readAndCheck(eager, 1 + i % 3);
      }
      assertThat(eager.atEnd()).isTrue();
      eager.close();
      SplittableRandom r = new SplittableRandom(3);
      for (int n = 0; n < 4_000; n++) {
        int i = r.nextInt(count);
        ChunkedFileReader lazy = ChunkedFileReader.forPointRead(path, ch, null, length, Compressors.LZ4, 4096, null, 8);
        try {
          lazy.seek(positions[i]);
          readAndCheck(lazy, 1 + i % 3);
          if (i + 1 < count) {
            assertThat(lazy.position()).isEqualTo(positions[i + 1]);
          }
        } finally {
          lazy.close();
        }
      }
    }
  }
}
