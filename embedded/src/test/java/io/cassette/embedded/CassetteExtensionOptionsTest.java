package io.cassette.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The JUnit 5 extension registered in a static field with options: one node for the class. */
class CassetteExtensionOptionsTest {
  @RegisterExtension
  static final CassetteExtension NODE = new CassetteExtension(() -> Cassette.embedded().withRedis());

  @Test
  void servesRedisToo() {
    InetSocketAddress redis = NODE.cassette().redisAddress().orElseThrow();
    try (Jedis jedis = new Jedis(redis.getHostString(), redis.getPort())) {
      assertThat(jedis.set("k", "v")).isEqualTo("OK");
      assertThat(jedis.get("k")).isEqualTo("v");
    }
  }

  @Test
  void theSameNodeServesEveryTestOfTheClass(Cassette injected) {
    assertThat(injected).isSameAs(NODE.cassette());
  }
}
