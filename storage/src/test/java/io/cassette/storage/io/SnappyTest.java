package io.cassette.storage.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Our Snappy against iq80's independent pure-Java implementation, both directions. */
class SnappyTest {
  private static byte[] compress(byte[] in) {
    byte[] out = new byte[Snappy.maxCompressedLength(in.length)];
    return Arrays.copyOf(out, Snappy.compress(in, 0, in.length, out, 0));
  }

  private static byte[] iq80Compress(byte[] in) {
    byte[] out = new byte[org.iq80.snappy.Snappy.maxCompressedLength(in.length)];
    return Arrays.copyOf(out, org.iq80.snappy.Snappy.compress(in, 0, in.length, out, 0));
  }

  private static byte[][] samples() {
    Random random = new Random(42);
    byte[] noise = new byte[200_000];
    random.nextBytes(noise);
    byte[] text = "SELECT k, v FROM ks.kv WHERE k = ? -- the quick brown fox "
        .repeat(5000).getBytes(StandardCharsets.UTF_8);
    byte[] mixed = new byte[300_000];
    for (int i = 0; i < mixed.length; i++) {
      mixed[i] = (byte) (random.nextInt(10) < 7 ? i % 13 : random.nextInt());
    }
    return new byte[][] {new byte[0], {7}, "abcd".getBytes(StandardCharsets.UTF_8), new byte[70_000], noise, text, mixed};
  }

  /** Bytes from a small alphabet in runs, so both literals and copies of every kind occur. */
  private static byte[] compressible(long seed, int length, int alphabet) {
    Random random = new Random(seed);
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = i > 8 && random.nextInt(4) == 0 ? b[i - 1 - random.nextInt(Math.min(i - 1, 3000))] : (byte) random.nextInt(alphabet);
    }
    return b;
  }

  @Test
  void iq80DecodesWhatWeEncode() {
    for (byte[] sample : samples()) {
      byte[] packed = compress(sample);
      assertThat(org.iq80.snappy.Snappy.uncompress(packed, 0, packed.length)).isEqualTo(sample);
    }
  }

  @Test
  void weDecodeWhatIq80Encodes() {
    for (byte[] sample : samples()) {
      byte[] packed = iq80Compress(sample);
      assertThat(Snappy.uncompress(packed, 0, packed.length, Integer.MAX_VALUE)).isEqualTo(sample);
    }
  }

  @Property(tries = 200)
  void randomInputsAgreeWithIq80BothWays(@ForAll long seed, @ForAll @IntRange(max = 140_000) int length,
                                         @ForAll @IntRange(min = 1, max = 256) int alphabet) {
    byte[] sample = compressible(seed, length, alphabet);
    byte[] ours = compress(sample);
    assertThat(org.iq80.snappy.Snappy.uncompress(ours, 0, ours.length)).isEqualTo(sample);
    byte[] theirs = iq80Compress(sample);
    byte[] back = new byte[sample.length + 8];
    Snappy.uncompress(theirs, 0, theirs.length, back, 8, sample.length);
    assertThat(Arrays.copyOfRange(back, 8, back.length)).isEqualTo(sample);
  }

  @Test
  void theSSTableCompressorIsThisCodec() {
    byte[] sample = samples()[6];
    Compressor c = Compressors.SNAPPY;
    byte[] packed = new byte[c.maxCompressedLength(sample.length) + 3];
    int n = c.compress(sample, 0, sample.length, packed, 3);
    assertThat(org.iq80.snappy.Snappy.uncompress(packed, 3, n)).isEqualTo(sample);
    byte[] back = new byte[sample.length];
    c.decompress(packed, 3, n, back, 0, back.length);
    assertThat(back).isEqualTo(sample);
    assertThatThrownBy(() -> c.decompress(packed, 3, n, new byte[back.length + 1], 0, back.length + 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: " + (back.length + 1));
  }

  @Test
  void repetitiveInputShrinks() {
    byte[] text = "abcdefgh".repeat(10_000).getBytes(StandardCharsets.UTF_8);
    assertThat(compress(text).length).isLessThan(text.length / 10);
  }

  @Test
  void corruptOrOversizedInputIsRefusedWithAReason() {
    byte[] packed = compress("hello hello hello hello hello".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Snappy.uncompress(packed, 0, packed.length, 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected: <= 10");
    assertThatThrownBy(() -> Snappy.uncompress(packed, 0, packed.length - 2, 1000))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] badOffset = {10, 0b0000_0001 | (5 << 2), 100}; // copy before any output
    assertThatThrownBy(() -> Snappy.uncompress(badOffset, 0, badOffset.length, 1000))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of bounds");
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      byte[] junk = new byte[random.nextInt(64)];
      random.nextBytes(junk);
      try {
        Snappy.uncompress(junk, 0, junk.length, 1 << 20);
      } catch (IllegalArgumentException expected) {
        // the only failure allowed
      }
    }
  }
}
