package io.cassette.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.Status;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** How a Redis client's error is counted: failed (surely not run) or indeterminate (may have run). */
class RedisOutcomesTest {
  @Test
  void errorsSaidBeforeTheCommandRanAreFailures() {
    assertThat(Outcomes.ofRedisWrite(new JedisDataException("CLUSTERDOWN The node that owns the key is down")))
        .isEqualTo(Status.FAIL);
    assertThat(Outcomes.ofRedisWrite(new JedisDataException("TRYAGAIN the node that owns the key is starting (its "
        + "Redis door is not open yet); the command was not run"))).isEqualTo(Status.FAIL);
    assertThat(Outcomes.ofRedisWrite(new JedisDataException("TRYAGAIN this node's lease on the key's replicas ran out "
        + "before the write; the command was not applied"))).isEqualTo(Status.FAIL);
    assertThat(Outcomes.ofRedisWrite(new JedisConnectionException("Failed to connect to 10.0.0.3:6379.")))
        .isEqualTo(Status.FAIL);
  }

  @Test
  void errorsThatMayFollowTheCommandAreIndeterminate() {
    assertThat(Outcomes.ofRedisWrite(new JedisConnectionException(new java.net.SocketTimeoutException("Read timed out"))))
        .isEqualTo(Status.INDETERMINATE);
    assertThat(Outcomes.ofRedisWrite(new JedisDataException("TRYAGAIN something else")))
        .isEqualTo(Status.INDETERMINATE);
    assertThat(Outcomes.ofRedisWrite(new JedisDataException("ERR timeout: the node that owns the key did not answer "
        + "in time"))).isEqualTo(Status.INDETERMINATE);
  }
}
