package io.cassette.resp.command;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys of commands that count them with a numkeys argument (Redis's "movablekeys"):
 * ZUNION/ZINTER/ZDIFF/ZINTERCARD/ZMPOP/LMPOP (numkeys first), the *STORE forms (a destination,
 * then numkeys) and BZMPOP/BLMPOP (a timeout, then numkeys), for the ring's routing and
 * COMMAND GETKEYS. Null for any other command.
 */
public final class MovableKeys {
  private MovableKeys() {}

  public static List<byte[]> of(String name, byte[][] args) {
    switch (name) {
      case "zunion", "zinter", "zdiff", "zintercard", "zmpop", "lmpop":
        return SortedSetAlgebra.keyArguments(args, 1);
      case "bzmpop", "blmpop":
        return SortedSetAlgebra.keyArguments(args, 2);
      case "zunionstore", "zinterstore", "zdiffstore": {
        List<byte[]> keys = new ArrayList<>();
        if (args.length > 1) {
          keys.add(args[1]);
        }
        keys.addAll(SortedSetAlgebra.keyArguments(args, 2));
        return keys;
      }
      default:
        return null;
    }
  }
}
