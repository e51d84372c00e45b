package io.cassette.resp.stream;

import io.cassette.resp.script.RedisSuiteShortTest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis's own stream units (7.0.15, portable profile) against an in-JVM server: each passes at
 * least 95% of what real Redis passes (63 and 48). About a minute, so under -Pslow; the same
 * units against a real node: {@code bench/redis-suite --units "unit/type/stream unit/type/stream-cgroups"}.
 */
@Tag("slow")
class StreamSuiteTest {
  @TempDir Path dir;

  @Test
  void streamUnitsPassAsOnRedis() throws Exception {
    RedisSuiteShortTest.passAsOnRedis(dir, Map.of("unit/type/stream", 63, "unit/type/stream-cgroups", 48));
  }
}
