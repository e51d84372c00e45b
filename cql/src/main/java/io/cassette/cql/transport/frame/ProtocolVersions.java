package io.cassette.cql.transport.frame;

import java.util.List;

/**
 * The protocol versions this server speaks and the negotiation message. A client that
 * proposes another version gets a PROTOCOL_ERROR whose text contains "Invalid or unsupported
 * protocol version", the phrase drivers look for before retrying with a lower version.
 */
public final class ProtocolVersions {
  public static final int MIN = 3;
  /** The highest stable version: the answer to a client that proposes a newer one. */
  public static final int MAX = 5;
  /**
   * Cassandra 5.0's beta version: spoken (as v5: nothing in 5.0 depends on v6) only by clients
   * that set USE_BETA on every frame; responses carry the flag too.
   */
  public static final int BETA = 6;
  /** The first version framed with checksummed segments after STARTUP. */
  public static final int FIRST_SEGMENTED = 5;
  /** As Cassandra prints them in SUPPORTED and in the negotiation error. */
  public static final List<String> NAMES = List.of("3/v3", "4/v4", "5/v5", "6/v6-beta");

  private ProtocolVersions() {}

  public static boolean isSupported(int version) {
    return version >= MIN && version <= BETA;
  }

  public static boolean isBeta(int version) {
    return version == BETA;
  }

  /** Cassandra's refusal of a beta version without the USE_BETA flag. */
  public static String betaFlagUnsetMessage(int version) {
    return "Beta version of the protocol used (" + version + "/v" + version
        + "-beta), but USE_BETA flag is unset";
  }

  /**
   * The version in which to answer a client that proposed {@code proposed}: versions 1 and 2
   * get their own (a v2 client could read nothing else), anything newer gets our highest.
   */
  public static int replyVersionFor(int proposed) {
    if (proposed >= 1 && proposed < MIN) {
      return proposed;
    }
    return MAX;
  }

  public static String unsupportedMessage(int proposed) {
    return "Invalid or unsupported protocol version (" + proposed + "); supported versions are ("
        + String.join(", ", NAMES) + ")";
  }
}
