package io.cassette.storage.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.junit.jupiter.api.Test;

/**
 * {@link Lz4BlockEncoder}'s blocks decode, by lz4-java's safe decoder (the reference) and by
 * {@link Lz4BlockDecoder}, to the input, and are about as small as lz4-java's fast compressor's.
 */
class Lz4BlockEncoderTest {
  private static final LZ4SafeDecompressor REFERENCE = LZ4Factory.safeInstance().safeDecompressor();

  @Test
  void blocksDecodeToTheInputInEveryDecoder() {
    Random r = new Random(17);
    for (int length : new int[] {0, 1, 4, 5, 12, 13, 14, 15, 16, 17, 19, 20, 31, 32, 33, 64, 255, 1000, 16384,
        65536, 70_000, 200_000}) {
      for (int kind = 0; kind < 5; kind++) {
        for (int round = 0; round < (length < 100 ? 20 : 2); round++) {
          byte[] in = Lz4BlockDecoderTest.sample(r, length, kind);
          byte[] block = new byte[Lz4BlockEncoder.maxEncodedLength(length) + 5];
          Arrays.fill(block, (byte) 0x5A);
          int n = Lz4BlockEncoder.encode(in, 0, length, block, 3);
          assertThat(Arrays.copyOfRange(block, 0, 3)).containsOnly(0x5A);
          assertThat(Arrays.copyOfRange(block, 3 + n, block.length)).containsOnly(0x5A);
          byte[] out = new byte[length];
          assertThat(REFERENCE.decompress(block, 3, n, out, 0)).isEqualTo(length);
          assertThat(out).as("reference, length %d kind %d", length, kind).isEqualTo(in);
          byte[] ours = new byte[length];
          Lz4BlockDecoder.decode(block, 3, n, ours, 0, length);
          assertThat(ours).as("ours, length %d kind %d", length, kind).isEqualTo(in);
        }
      }
    }
  }

  @Test
  void encodesASliceOfALargerArray() {
    Random r = new Random(5);
    byte[] in = Lz4BlockDecoderTest.sample(r, 40_000, 2);
    byte[] block = new byte[Lz4BlockEncoder.maxEncodedLength(20_000)];
    int n = Lz4BlockEncoder.encode(in, 10_000, 20_000, block, 0);
    byte[] out = new byte[20_000];
    Lz4BlockDecoder.decode(block, 0, n, out, 0, 20_000);
    assertThat(out).isEqualTo(Arrays.copyOfRange(in, 10_000, 30_000));
  }

  @Test
  void compressesAsWellAsLz4JavasFastCompressor() {
    Random r = new Random(9);
    var fast = LZ4Factory.safeInstance().fastCompressor();
    for (int kind = 1; kind < 5; kind++) {
      byte[] in = Lz4BlockDecoderTest.sample(r, 16384, kind);
      int ours = Lz4BlockEncoder.encode(in, 0, in.length, new byte[Lz4BlockEncoder.maxEncodedLength(in.length)], 0);
      int theirs = fast.compress(in, 0, in.length, new byte[fast.maxCompressedLength(in.length)], 0);
      assertThat(ours).as("kind %d: ours %d, lz4-java %d", kind, ours, theirs).isLessThanOrEqualTo(theirs + theirs / 20 + 16);
    }
  }
}
