package io.cassette.tools.redis;

import java.util.List;

/** The option taking redis-import and redis-export share, after {@link RedisTarget#parse}. */
final class ToolArgs {
  private ToolArgs() {}

  /** Removes {@code name VALUE} from {@code args}, answering VALUE, or {@code absent} without it. */
  static int takeInt(List<String> args, String name, int absent) {
    int at = args.indexOf(name);
    if (at < 0) {
      return absent;
    }
    if (at + 1 >= args.size()) {
      throw new IllegalArgumentException(name + " needs a value");
    }
    int value = Integer.parseInt(args.remove(at + 1));
    args.remove(at);
    return value;
  }

  /** The one FILE argument left once every option was taken. */
  static String onlyFile(List<String> args) {
    if (args.size() != 1 || args.get(0).startsWith("-")) {
      throw new IllegalArgumentException(args.isEmpty() ? "FILE is missing" : "unexpected arguments " + args);
    }
    return args.get(0);
  }
}
