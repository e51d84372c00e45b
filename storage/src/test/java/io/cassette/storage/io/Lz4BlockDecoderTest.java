package io.cassette.storage.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.junit.jupiter.api.Test;

/** {@link Lz4BlockDecoder} against lz4-java's encoders (fast and HC) and its safe decoder. */
class Lz4BlockDecoderTest {
  private static final LZ4Factory JAVA = LZ4Factory.safeInstance();
  private static final LZ4Compressor FAST = JAVA.fastCompressor();
  private static final LZ4Compressor HIGH = JAVA.highCompressor();
  private static final LZ4SafeDecompressor REFERENCE = JAVA.safeDecompressor();

  /** Inputs with short and long literal runs and matches at every offset class (1, 2-7, >= 8). */
  static byte[] sample(Random r, int length, int kind) {
    if (kind < 3) {
      return CompressorsTest.sample(r, length, kind);
    }
    byte[] b = new byte[length];
    int period = 1 + r.nextInt(kind == 3 ? 7 : 300);
    for (int i = 0; i < length; i++) {
      b[i] = i < period || r.nextInt(40) == 0 ? (byte) r.nextInt(256) : b[i - period];
    }
    return b;
  }

  @Test
  void decodesWhatLz4JavaEncodes() {
    Random r = new Random(7);
    for (int length : new int[] {0, 1, 4, 5, 12, 13, 15, 16, 17, 19, 20, 31, 32, 33, 64, 1000, 16384, 65536, 70_000}) {
      for (int kind = 0; kind < 5; kind++) {
        for (LZ4Compressor c : new LZ4Compressor[] {FAST, HIGH}) {
          byte[] in = sample(r, length, kind);
          byte[] block = new byte[c.maxCompressedLength(length) + 5];
          int n = c.compress(in, 0, length, block, 3);
          byte[] out = new byte[length + 9];
          Arrays.fill(out, (byte) 0x5A);
          Lz4BlockDecoder.decode(block, 3, n, out, 4, length);
          assertThat(Arrays.copyOfRange(out, 4, 4 + length)).as("length %d kind %d", length, kind).isEqualTo(in);
          // nothing written outside the output range
          assertThat(Arrays.copyOfRange(out, 0, 4)).containsOnly(0x5A);
          assertThat(Arrays.copyOfRange(out, 4 + length, out.length)).containsOnly(0x5A);
        }
      }
    }
  }

  /** Decoding in parts of random sizes, resumed from the returned state, gives the whole block's bytes. */
  @Test
  void decodesInPartsAsFarAsAsked() {
    Random r = new Random(11);
    for (int length : new int[] {1, 17, 1000, 16384, 65536}) {
      for (int kind = 0; kind < 5; kind++) {
        byte[] in = sample(r, length, kind);
        byte[] block = FAST.compress(in);
        byte[] out = new byte[length];
        long state = 0;
        int calls = 0;
        while ((int) state < length) {
          int asked = Math.min(length, (int) state + r.nextInt(1, 600));
          state = Lz4BlockDecoder.decodePart(block, 0, block.length, out, 0, length, state, asked);
          int done = (int) state;
          assertThat(done).as("length %d kind %d", length, kind).isGreaterThanOrEqualTo(asked);
          assertThat(Arrays.copyOfRange(out, 0, done)).isEqualTo(Arrays.copyOfRange(in, 0, done));
          calls++;
        }
        assertThat((int) (state >>> 32)).isEqualTo(block.length);
        assertThat(out).isEqualTo(in);
        if (length >= 16384 && kind >= 3) { // many short sequences
          assertThat(calls).as("stops early when asked for little").isGreaterThan(1);
        }
      }
    }
  }

  @Test
  void aPartialDecodeStillRefusesABlockOfAnotherLength() {
    byte[] in = sample(new Random(1), 20_000, 4);
    byte[] block = FAST.compress(in);
    byte[] out = new byte[20_001];
    long state = Lz4BlockDecoder.decodePart(block, 0, block.length, out, 0, 20_001, 0, 100);
    assertThat((int) state).isLessThan(20_000);
    long from = state;
    assertThatThrownBy(() -> Lz4BlockDecoder.decodePart(block, 0, block.length, out, 0, 20_001, from, 20_001))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Lz4BlockDecoder.decodePart(block, 0, block.length, out, 0, 20_001, -1L, 20_001))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesAnotherLength() {
    byte[] in = sample(new Random(1), 1000, 2);
    byte[] block = FAST.compress(in);
    assertThatThrownBy(() -> Lz4BlockDecoder.decode(block, 0, block.length, new byte[999], 0, 999))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Lz4BlockDecoder.decode(block, 0, block.length, new byte[1001], 0, 1001))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Lz4BlockDecoder.decode(block, 0, block.length - 1, new byte[1000], 0, 1000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Lz4BlockDecoder.decode(block, 0, 0, new byte[0], 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesHandMadeBadBlocks() {
    byte[][] bad = {
        {0x1F, 'a', 0x00, 0x00, 0x00}, // match offset 0
        {0x1F, 'a', 0x02, 0x00, 0x00}, // match offset before the start
        {(byte) 0xF0}, // literal length nibble 15 without its extension byte
        {(byte) 0xF0, (byte) 0xFF, (byte) 0xFF}, // truncated extension
        {0x50, 'a', 'b'}, // literal run past the input's end
        {0x1F, 'a', 0x01, 0x00, (byte) 0xFF, (byte) 0xFF, 0x10}, // match past the output
        {0x10, 'a', 0x01}, // truncated offset
        {0x10, 'a', 0x01, 0x00}, // ends with a match
    };
    for (byte[] b : bad) {
      assertThatThrownBy(() -> Lz4BlockDecoder.decode(b, 0, b.length, new byte[64], 0, 64))
          .as(Arrays.toString(b)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  /**
   * Damaged blocks: only IllegalArgumentException, never a write outside the output, and
   * whatever decodes decodes as lz4-java's safe decoder decodes it.
   */
  @Test
  void damagedBlocksFailCleanlyOrAgreeWithTheReference() {
    Random r = new Random(99);
    // Encoding (HC above all) costs far more than decoding: a few blocks, damaged many ways.
    byte[][] blocks = new byte[100][];
    int[] lengths = new int[blocks.length];
    for (int i = 0; i < blocks.length; i++) {
      lengths[i] = 1 + r.nextInt(r.nextBoolean() ? 64 : 4096);
      blocks[i] = (i % 2 == 0 ? FAST : HIGH).compress(sample(r, lengths[i], r.nextInt(5)));
    }
    int decoded = 0;
    for (int round = 0; round < 20_000; round++) {
      int which = r.nextInt(blocks.length);
      int length = lengths[which];
      byte[] block = blocks[which].clone();
      int n = block.length;
      int damage = 1 + r.nextInt(4);
      for (int i = 0; i < damage; i++) {
        switch (r.nextInt(3)) {
          case 0 -> block[r.nextInt(n)] ^= (byte) (1 << r.nextInt(8));
          case 1 -> block[r.nextInt(n)] = (byte) r.nextInt(256);
          default -> n = Math.max(1, n - 1 - r.nextInt(Math.min(n, 8)));
        }
      }
      byte[] out = new byte[length + 16];
      Arrays.fill(out, (byte) 0x5A);
      boolean ok;
      try {
        Lz4BlockDecoder.decode(block, 0, n, out, 0, length);
        ok = true;
      } catch (IllegalArgumentException e) {
        ok = false;
      }
      assertThat(Arrays.copyOfRange(out, length, out.length)).containsOnly(0x5A);
      if (ok) {
        decoded++;
        byte[] expected = new byte[length];
        int m = REFERENCE.decompress(block, 0, n, expected, 0, length);
        assertThat(m).isEqualTo(length);
        assertThat(Arrays.copyOf(out, length)).isEqualTo(expected);
      }
    }
    assertThat(decoded).isPositive();
  }
}
