package io.cassette.cql.transport.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Our segment-header CRC24 against the one in the driver's protocol library. */
class CrcTest {
  @Test
  void crc24MatchesTheDriversImplementation() {
    Random random = new Random(1);
    for (int i = 0; i < 10_000; i++) {
      long header = random.nextLong() & 0xFF_FFFF_FFFFL;
      int bytes = random.nextBoolean() ? 3 : 5;
      assertThat(Crc.crc24(header, bytes))
          .isEqualTo(com.datastax.oss.protocol.internal.util.Crc.computeCrc24(header, bytes));
    }
  }
}
