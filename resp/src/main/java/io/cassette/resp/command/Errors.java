package io.cassette.resp.command;

/** Redis 7.0's error texts, verbatim (clients and tests match on them). */
public final class Errors {
  public static final String WRONGTYPE =
      "WRONGTYPE Operation against a key holding the wrong kind of value";
  public static final String NOT_INTEGER = "ERR value is not an integer or out of range";
  public static final String NOT_FLOAT = "ERR value is not a valid float";
  public static final String SYNTAX = "ERR syntax error";
  public static final String NO_SUCH_KEY = "ERR no such key";
  public static final String INDEX_OUT_OF_RANGE = "ERR index out of range";
  public static final String OVERFLOW = "ERR increment or decrement would overflow";
  public static final String NOAUTH = "NOAUTH Authentication required.";
  public static final String WRONGPASS =
      "WRONGPASS invalid username-password pair or user is disabled.";
  public static final String DB_OUT_OF_RANGE = "ERR DB index is out of range";
  public static final String HASH_NOT_INTEGER = "ERR hash value is not an integer";
  public static final String HASH_NOT_FLOAT = "ERR hash value is not a float";
  public static final String MIN_MAX_NOT_FLOAT = "ERR min or max is not a float";
  public static final String MIN_MAX_NOT_STRING =
      "ERR min or max not valid string range item";
  public static final String TIMEOUT_NOT_FLOAT = "ERR timeout is not a float or out of range";
  public static final String TIMEOUT_NEGATIVE = "ERR timeout is negative";
  public static final String NAN_RESULT = "ERR resulting score is not a number (NaN)";
  public static final String INCR_NAN_OR_INF = "ERR increment would produce NaN or Infinity";
  public static final String STRING_TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
  public static final String OFFSET_OUT_OF_RANGE = "ERR offset is out of range";
  public static final String POSITIVE_COUNT = "ERR value is out of range, must be positive";
  public static final String MAX_CLIENTS = "ERR max number of clients reached";
  public static final String DENIED_PROTECTED = "DENIED Redis is running in protected mode because "
      + "protected mode is enabled and no password is set for the default user. In this mode "
      + "connections are only accepted from the loopback interface. If you want to connect from "
      + "external computers to Redis you may adopt one of the following solutions: 1) Just "
      + "disable protected mode sending the command 'CONFIG SET protected-mode no' from the "
      + "loopback interface by connecting to Redis from the same host the server is running, "
      + "however MAKE SURE Redis is not publicly accessible from internet if you do so. Use "
      + "CONFIG REWRITE to make this change permanent. 2) Alternatively you can just disable "
      + "the protected mode by editing the Redis configuration file, and setting the protected "
      + "mode option to 'no', and then restarting the server. 3) If you started the server "
      + "manually just for testing, restart it with the '--protected-mode no' option. 4) Set up "
      + "an authentication password for the default user. NOTE: You only need to do one of the "
      + "above things in order for the server to start accepting connections from the outside.";

  private Errors() {}

  public static String wrongArity(String fullName) {
    return "ERR wrong number of arguments for '" + fullName + "' command";
  }

  public static String invalidExpire(String command) {
    return "ERR invalid expire time in '" + command + "' command";
  }

  public static String unknownSubcommand(String sub, String container) {
    return "ERR unknown subcommand '" + abbreviate(sub) + "'. Try " + container.toUpperCase()
        + " HELP.";
  }

  static String abbreviate(String s) {
    return s.length() > 128 ? s.substring(0, 128) : s;
  }
}
