package io.cassette.storage.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.storage.StorageException;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CompressorsTest {
  static byte[] sample(Random r, int length, int kind) {
    byte[] b = new byte[length];
    switch (kind) {
      case 0 -> r.nextBytes(b); // incompressible
      case 1 -> Arrays.fill(b, (byte) 'x'); // one long run
      default -> {
        String words = "key value partition row cell tombstone ";
        for (int i = 0; i < length; i++) {
          b[i] = (byte) (r.nextInt(20) == 0 ? r.nextInt(256) : words.charAt((i * 7 + r.nextInt(3)) % words.length()));
        }
      }
    }
    return b;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void roundTripsEveryShapeOfInput(int id) {
    Compressor c = Compressors.byId(id);
    Random r = new Random(42 + id);
    for (int length : new int[] {0, 1, 3, 4, 5, 17, 64, 65, 1000, 4096, 16384, 65536, 200_000}) {
      for (int kind = 0; kind < 3; kind++) {
        byte[] in = sample(r, length, kind);
        byte[] out = new byte[c.maxCompressedLength(length) + 7];
        int n = c.compress(in, 0, length, out, 7);
        byte[] back = new byte[length];
        c.decompress(out, 7, n, back, 0, length);
        assertThat(back).as("%s length %d kind %d", c.name(), length, kind).isEqualTo(in);
        if (kind == 1 && length > 1000 && id != 0) {
          assertThat(n).isLessThan(length / 10);
        }
      }
    }
  }

  @Test
  void snappyDecodesTheReferenceEncoding() {
    // "aaaaaaaaaaaaaaaaaaaa" (20 bytes) as the reference snappy encodes it:
    // varint 20, literal "a" (tag 0x00), copy-1 offset 1 length 11 (tag 0x1d 0x01), copy-1 offset 1 length 8 (0x11 0x01)
    byte[] encoded = {20, 0x00, 'a', 0x1d, 0x01, 0x11, 0x01};
    byte[] out = new byte[20];
    Compressors.SNAPPY.decompress(encoded, 0, encoded.length, out, 0, 20);
    assertThat(new String(out)).isEqualTo("a".repeat(20));
  }

  @Test
  void malformedInputIsRejected() {
    byte[] garbage = {50, 0x3d, 0x7f, 0x7f};
    assertThatThrownBy(() -> Compressors.SNAPPY.decompress(garbage, 0, garbage.length, new byte[50], 0, 50))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Compressors.LZ4.decompress(garbage, 0, garbage.length, new byte[50], 0, 50))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Compressors.DEFLATE.decompress(garbage, 0, garbage.length, new byte[50], 0, 50))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void chosenByCassandraOptionNames() {
    assertThat(Compressors.forOptions(Map.of("class", "org.apache.cassandra.io.compress.SnappyCompressor")))
        .isSameAs(Compressors.SNAPPY);
    assertThat(Compressors.forOptions(Map.of("class", "DeflateCompressor"))).isSameAs(Compressors.DEFLATE);
    assertThat(Compressors.forOptions(Map.of("enabled", "false"))).isSameAs(Compressors.NONE);
    assertThat(Compressors.forOptions(Map.of())).isSameAs(Compressors.LZ4);
    assertThat(Compressors.chunkLength(Map.of("chunk_length_in_kb", "64"))).isEqualTo(65536);
    assertThatThrownBy(() -> Compressors.chunkLength(Map.of("chunk_length_in_kb", "3")))
        .isInstanceOf(StorageException.class).hasMessageContaining("power of 2");
    assertThatThrownBy(() -> Compressors.forOptions(Map.of("class", "ZstdCompressor")))
        .isInstanceOf(StorageException.class).hasMessageContaining("ZstdCompressor");
  }
}
