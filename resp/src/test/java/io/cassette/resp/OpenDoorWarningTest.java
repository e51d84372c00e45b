package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start-up warning for a Redis door beyond loopback without a password (no socket is bound). */
class OpenDoorWarningTest {
  @Test
  void warnsOnlyBeyondLoopbackWithoutAPassword() {
    assertThat(RespServer.openDoorWarning("127.0.0.1", false, true)).isNull();
    assertThat(RespServer.openDoorWarning("127.0.0.3", false, false)).isNull();
    assertThat(RespServer.openDoorWarning("0.0.0.0", true, true)).isNull();
    assertThat(RespServer.openDoorWarning("0.0.0.0", false, true))
        .startsWith("WARNING: the Redis door listens on 0.0.0.0 (not loopback)")
        .contains("protected mode refuses clients from other hosts");
    assertThat(RespServer.openDoorWarning("192.168.1.21", false, false))
        .contains("ANY client that can reach it");
  }
}
