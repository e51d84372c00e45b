package io.cassette.resp.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.command.CommandTable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hash tags as Redis Cluster's keyHashSlot reads them (examples from the cluster spec). */
class HashTagsTest {
  static String tag(String key) {
    return new String(HashTags.placementBytes(key.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
  }

  @Test
  void theTagIsBetweenTheFirstOpeningBraceAndTheNextClosingOne() {
    assertThat(tag("{user1000}.following")).isEqualTo("user1000");
    assertThat(tag("{user1000}.followers")).isEqualTo("user1000");
    assertThat(tag("foo{{bar}}zap")).isEqualTo("{bar");
    assertThat(tag("foo{bar}{zap}")).isEqualTo("bar");
    assertThat(tag("foo{}{bar}")).isEqualTo("foo{}{bar}"); // empty tag: the whole key
    assertThat(tag("{}")).isEqualTo("{}");
    assertThat(tag("foo{bar")).isEqualTo("foo{bar"); // no closing brace
    assertThat(tag("plain")).isEqualTo("plain");
  }

  @Test
  void keysWithOneTagHaveOneToken() {
    assertThat(HashTags.token("{u}:a".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(HashTags.token("{u}:b".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(HashTags.token("u".getBytes(StandardCharsets.UTF_8)));
    assertThat(HashTags.token("a".getBytes(StandardCharsets.UTF_8)))
        .isNotEqualTo(HashTags.token("b".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void commandKeysFollowTheKeySpecs() {
    CommandTable t = CommandTable.standard();
    assertThat(keys(t, "mset", "a", "1", "b", "2")).containsExactly("a", "b");
    assertThat(keys(t, "blpop", "q1", "q2", "5")).containsExactly("q1", "q2");
    assertThat(keys(t, "sintercard", "2", "s1", "s2", "LIMIT", "3")).containsExactly("s1", "s2");
    assertThat(keys(t, "ping")).isEmpty();
  }

  static List<String> keys(CommandTable t, String... args) {
    byte[][] a = new byte[args.length][];
    for (int i = 0; i < args.length; i++) {
      a[i] = args[i].getBytes(StandardCharsets.UTF_8);
    }
    return CommandKeys.of(t.get(args[0]), a).stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList();
  }
}
