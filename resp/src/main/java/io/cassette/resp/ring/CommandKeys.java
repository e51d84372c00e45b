package io.cassette.resp.ring;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The key arguments of a command, as Redis's key specs give them: first, last (negative:
 * from the end), step from the command table; commands whose keys are counted by an argument
 * (SINTERCARD numkeys key ...) are named here, as Redis's "movablekeys" procs do.
 */
final class CommandKeys {
  private CommandKeys() {}

  /** The keys of {@code args} (empty for a keyless command or bad arguments). */
  static List<byte[]> of(CommandSpec spec, byte[][] args) {
    List<byte[]> scriptKeys = io.cassette.resp.script.ScriptCommands.keyArguments(spec.name(), args);
    if (scriptKeys != null) {
      return scriptKeys; // EVAL/FCALL run whole on their keys' node
    }
    List<byte[]> movable = io.cassette.resp.command.MovableKeys.of(spec.name(), args);
    if (movable != null) {
      return movable; // ZUNION & co., ZMPOP, LMPOP: numkeys, then the keys
    }
    List<byte[]> streamKeys = io.cassette.resp.stream.StreamCommands.keysOf(spec.name(), args);
    if (streamKeys != null) {
      return streamKeys; // XREAD/XREADGROUP: the keys after STREAMS
    }
    List<byte[]> keys = new ArrayList<>();
    if (spec.name().equals("sintercard")) {
      long n;
      try {
        n = Args.parseLong(args[1]);
      } catch (RuntimeException e) {
        return keys; // the command itself answers the error
      }
      for (int i = 2; i < args.length && i < 2 + n; i++) {
        keys.add(args[i]);
      }
      return keys;
    }
    if (spec.firstKey() <= 0) {
      return keys;
    }
    int last = spec.lastKey() < 0 ? args.length + spec.lastKey() : spec.lastKey();
    for (int i = spec.firstKey(); i <= last && i < args.length; i += Math.max(1, spec.step())) {
      keys.add(args[i]);
    }
    return keys;
  }
}
