package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3TokenFactory;
import java.nio.ByteBuffer;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Our partition tokens (storage's {@code Murmur3Token}) equal the Java driver's, which routes
 * requests by them: a difference sends every token-aware request to the wrong replica. Random
 * keys of every length, tails of every size, bytes with the high bit set (Cassandra's
 * sign-extension quirk) and real key encodings.
 */
class Murmur3TokenDriverAgreementTest {
  private static final Murmur3TokenFactory DRIVER = new Murmur3TokenFactory();

  private static long driverToken(byte[] key) {
    return ((Murmur3Token) DRIVER.hash(ByteBuffer.wrap(key))).getValue();
  }

  @Property(tries = 5000)
  void randomKeysHashAlike(@ForAll @Size(max = 300) byte[] key) {
    assertThat(io.cassette.storage.Murmur3Token.of(key)).as("token of %d bytes", key.length)
        .isEqualTo(driverToken(key));
  }

  @Test
  void everyLengthUpToFourBlocksHashesAlike() {
    Random random = new Random(14);
    for (int length = 0; length <= 64; length++) {
      for (int i = 0; i < 200; i++) {
        byte[] key = new byte[length];
        random.nextBytes(key);
        assertThat(io.cassette.storage.Murmur3Token.of(key)).as("token of %d bytes", length)
            .isEqualTo(driverToken(key));
      }
    }
  }

  @Test
  void bigintAndTextKeysHashAlike() {
    for (long k = -1000; k <= 1000; k++) {
      byte[] key = ByteBuffer.allocate(8).putLong(k * 0x9E3779B97F4A7C15L).array();
      assertThat(io.cassette.storage.Murmur3Token.of(key)).isEqualTo(driverToken(key));
      byte[] text = ("user" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertThat(io.cassette.storage.Murmur3Token.of(text)).isEqualTo(driverToken(text));
    }
  }
}
