package io.cassette.cql.auth;

import org.mindrot.jbcrypt.BCrypt;

/**
 * bcrypt password hashes as Cassandra stores them in {@code system_auth.roles.salted_hash}:
 * jBCrypt's {@code $2a$} format with 2^10 rounds by default
 * ({@code auth_bcrypt_gensalt_log2_rounds}), so rows copied from a Cassandra node log in here
 * and the other way round. Checking costs about as much as hashing (tens of milliseconds at 10
 * rounds on a board): that is why credentials are cached ({@code credentials_validity}).
 */
public final class PasswordHashes {
  /** Cassandra's default and lowest sensible cost. */
  public static final int DEFAULT_LOG2_ROUNDS = 10;

  private PasswordHashes() {}

  public static String hash(String password, int log2Rounds) {
    return BCrypt.hashpw(password, BCrypt.gensalt(log2Rounds));
  }

  /** True if {@code password} matches {@code hash}; false for a malformed hash. */
  public static boolean check(String password, String hash) {
    if (hash == null) {
      return false;
    }
    try {
      return BCrypt.checkpw(password, hash);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** True if {@code hash} looks like a bcrypt hash jBCrypt can check (HASHED PASSWORD). */
  public static boolean isValid(String hash) {
    if (hash == null || hash.length() != 60 || !hash.startsWith("$2")) {
      return false;
    }
    try {
      BCrypt.checkpw("", hash);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
