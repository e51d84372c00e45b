package io.cassette.server.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class HeartbeatStateTest {
  @Test
  void roundTripsLoadAndSchemaVersion() {
    UUID v = UUID.randomUUID();
    assertThat(HeartbeatState.decode(new HeartbeatState(123_456_789_012L, v).encode()))
        .isEqualTo(new HeartbeatState(123_456_789_012L, v));
    assertThat(HeartbeatState.decode(new HeartbeatState(0, null).encode())).isEqualTo(new HeartbeatState(0, null));
  }

  @Test
  void anOlderNodesShorterStateReadsAsUnknownAndANewerNodesLongerOneAsItsKnownFields() {
    assertThat(HeartbeatState.decode(null)).isEqualTo(HeartbeatState.UNKNOWN);
    assertThat(HeartbeatState.decode(new byte[0])).isEqualTo(HeartbeatState.UNKNOWN);
    assertThat(HeartbeatState.decode(new byte[] {0, 0, 0, 0, 0, 0, 0, 9})).isEqualTo(new HeartbeatState(9, null));
    UUID v = new UUID(1, 2);
    byte[] longer = java.util.Arrays.copyOf(new HeartbeatState(5, v).encode(), 40);
    assertThat(HeartbeatState.decode(longer)).isEqualTo(new HeartbeatState(5, v));
  }
}
