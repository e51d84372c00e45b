package io.cassette.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** bcrypt hashes are Cassandra's: rows copied from a Cassandra node log in here and back. */
class PasswordHashesTest {
  /** system_auth.roles.salted_hash of the default role written by Cassandra 5.0.4 (the anchor). */
  static final String CASSANDRA_504_HASH = "$2a$10$nV7P24Kof5cc.cp9NZN1OO7QdRr8aiNW.gE7CSuoi7fTCqva9h12e";

  @Test
  void checksAHashWrittenByCassandra() {
    assertThat(PasswordHashes.check("cassandra", CASSANDRA_504_HASH)).isTrue();
    assertThat(PasswordHashes.check("Cassandra", CASSANDRA_504_HASH)).isFalse();
    assertThat(PasswordHashes.isValid(CASSANDRA_504_HASH)).isTrue();
  }

  @Test
  void writesTheSameFormatAndRefusesMalformedHashes() {
    String h = PasswordHashes.hash("s3cret", PasswordHashes.DEFAULT_LOG2_ROUNDS);
    assertThat(h).startsWith("$2a$10$").hasSize(60);
    assertThat(PasswordHashes.check("s3cret", h)).isTrue();
    assertThat(PasswordHashes.check("s3cret", "notahash")).isFalse();
    assertThat(PasswordHashes.check("s3cret", null)).isFalse();
    assertThat(PasswordHashes.isValid("notahash")).isFalse();
  }
}
