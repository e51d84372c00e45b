package io.cassette.cql.transport.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Our Snappy against iq80's independent pure-Java implementation, both directions. */
class SnappyTest {
  private static byte[] compress(byte[] in) {
    byte[] out = new byte[Snappy.maxCompressedLength(in.length)];
    return Arrays.copyOf(out, Snappy.compress(in, 0, in.length, out, 0));
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
    return new byte[][] {new byte[0], {7}, "abcd".getBytes(), new byte[70_000], noise, text, mixed};
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
      byte[] out = new byte[org.iq80.snappy.Snappy.maxCompressedLength(sample.length)];
      int n = org.iq80.snappy.Snappy.compress(sample, 0, sample.length, out, 0);
      assertThat(Snappy.uncompress(out, 0, n, Integer.MAX_VALUE)).isEqualTo(sample);
    }
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
        .isInstanceOf(CompressionException.class).hasMessageContaining("expected: <= 10");
    assertThatThrownBy(() -> Snappy.uncompress(packed, 0, packed.length - 2, 1000))
        .isInstanceOf(CompressionException.class);
    byte[] badOffset = {10, 0b0000_0001 | (5 << 2), 100}; // copy before any output
    assertThatThrownBy(() -> Snappy.uncompress(badOffset, 0, badOffset.length, 1000))
        .isInstanceOf(CompressionException.class).hasMessageContaining("out of bounds");
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      byte[] junk = new byte[random.nextInt(64)];
      random.nextBytes(junk);
      try {
        Snappy.uncompress(junk, 0, junk.length, 1 << 20);
      } catch (CompressionException expected) {
        // the only failure allowed
      }
    }
  }
}
