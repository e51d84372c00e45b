package io.cassette.resp.script;

import io.cassette.resp.session.Session;

/**
 * One running script or function: who called it, under which name Redis's errors cite it,
 * whether it may write, what it did so far. Created on the command thread, then used by the
 * script thread; {@link #killed} is set from the command thread (SCRIPT KILL).
 */
final class ScriptRun {
  /** The client that sent EVAL/FCALL. */
  final Session caller;
  /** The fake client redis.call runs commands as (its own db, RESP version). */
  final Session scriptClient;
  /** The sha1 of an EVAL script, or the function's name. */
  final String name;
  /** True for FCALL/FCALL_RO, false for EVAL and friends. */
  final boolean function;
  /** The command that started it, as sent (FUNCTION STATS shows it). */
  final byte[][] command;
  /** EVAL_RO, FCALL_RO, or a no-writes flag: write commands are refused. */
  final boolean readOnly;
  final long startNanos = System.nanoTime();
  /** A write command ran: SCRIPT KILL is refused from now on (UNKILLABLE). */
  volatile boolean wrote;
  volatile boolean killed;
  volatile String killedFor;
  /** A script running past this is stopped (FUNCTION LOAD's timeout); System.nanoTime(). */
  long deadlineNanos = Long.MAX_VALUE;
  /** The script's error reply is a command's error, already counted in INFO errorstats. */
  boolean errorCounted;
  /** The RESP version redis.call replies are converted from (redis.setresp). */
  int resp = 2;

  ScriptRun(Session caller, Session scriptClient, String name, boolean function, byte[][] command,
            boolean readOnly) {
    this.caller = caller;
    this.scriptClient = scriptClient;
    this.name = name;
    this.function = function;
    this.command = command;
    this.readOnly = readOnly;
  }

  String killMessage() {
    if (killedFor != null) {
      return killedFor;
    }
    return function ? "ERR Script killed by user with FUNCTION KILL..."
        : "ERR Script killed by user with SCRIPT KILL...";
  }

  long elapsedMillis() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
