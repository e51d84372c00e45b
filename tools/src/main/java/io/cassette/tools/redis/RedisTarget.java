package io.cassette.tools.redis;

import java.util.List;

/**
 * The connection options redis-import and redis-export share, named as redis-cli names them:
 * {@code -h HOST -p PORT [--user U] [-a PASSWORD]} (or REDISCLI_AUTH in the environment).
 */
record RedisTarget(String host, int port, String user, String password) {
  static final String OPTIONS = """
        -h HOST            server address (default 127.0.0.1)
        -p PORT            RESP port (default 6379)
        --user USER        ACL user (with -a)
        -a PASSWORD        password (default: $REDISCLI_AUTH)
      """;

  /** Takes the connection options out of {@code args}, leaving the rest. */
  static RedisTarget parse(List<String> args) {
    String host = "127.0.0.1";
    int port = 6379;
    String user = null;
    String password = System.getenv("REDISCLI_AUTH");
    for (int i = 0; i < args.size(); ) {
      String a = args.get(i);
      if (a.equals("-h") || a.equals("-p") || a.equals("--user") || a.equals("-a")) {
        if (i + 1 >= args.size()) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args.remove(i + 1);
        args.remove(i);
        switch (a) {
          case "-h" -> host = v;
          case "-p" -> port = Integer.parseInt(v);
          case "--user" -> user = v;
          default -> password = v;
        }
      } else {
        i++;
      }
    }
    return new RedisTarget(host, port, user, password);
  }

  RespClient connect() throws java.io.IOException {
    RespClient c = new RespClient(host, port, 30_000);
    c.auth(user, password);
    return c;
  }
}
