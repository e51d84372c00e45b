package io.cassette.resp.command;

/**
 * A command's table entry, as Redis's COMMAND describes it: name, arity (positive: exactly
 * that many arguments including the name; negative: at least that many), flags, and which
 * arguments are keys (first, last (-1 = last argument), step).
 */
public record CommandSpec(String name, int arity, int flags, int firstKey, int lastKey, int step,
                          CommandHandler handler) {
  /** Changes data: touches WATCHed keys. */
  public static final int WRITE = 1;
  public static final int READONLY = 1 << 1;
  /** Allowed before AUTH (AUTH, HELLO, QUIT, RESET). */
  public static final int NO_AUTH = 1 << 2;
  /** Allowed while subscribed in RESP2. */
  public static final int PUBSUB = 1 << 3;
  /** Runs at once inside MULTI instead of being queued (EXEC, DISCARD, MULTI, WATCH...). */
  public static final int NO_QUEUE = 1 << 4;
  /** May block the client (BLPOP...). */
  public static final int BLOCKING = 1 << 5;
  /** Creates keys/uses memory (COMMAND's "denyoom"). */
  public static final int DENY_OOM = 1 << 6;
  /** O(1) or nearly (COMMAND's "fast"). */
  public static final int FAST = 1 << 7;
  public static final int ADMIN = 1 << 8;
  /** Not allowed inside MULTI at all (WATCH). */
  public static final int NO_MULTI = 1 << 9;
  public static final int LOADING = 1 << 10;
  public static final int STALE = 1 << 11;

  public boolean has(int flag) {
    return (flags & flag) != 0;
  }

  public boolean arityOk(int argc) {
    return arity >= 0 ? argc == arity : argc >= -arity;
  }
}
