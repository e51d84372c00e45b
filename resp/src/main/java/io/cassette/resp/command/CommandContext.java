package io.cassette.resp.command;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;

/**
 * What a command sees while it runs: its arguments, its client's session and reply writer,
 * and the server. One instance per execution; used only on the command thread.
 */
public final class CommandContext {
  public final ServerContext server;
  public final Session session;
  public final byte[][] args;
  public final CommandSpec spec;
  /** False when the command runs inside EXEC, where blocking commands must not block. */
  public final boolean mayBlock;
  /** What this command counts in the node's {@link ServerContext#heldInTurns} ({@link CollectionInTurns#check}). */
  long heldCounted;

  public CommandContext(ServerContext server, Session session, byte[][] args, CommandSpec spec,
                        boolean mayBlock) {
    this.server = server;
    this.session = session;
    this.args = args;
    this.spec = spec;
    this.mayBlock = mayBlock;
  }

  public Reply reply() {
    return session.reply;
  }

  public int argc() {
    return args.length;
  }

  public byte[] arg(int i) {
    return args[i];
  }

  public String argString(int i) {
    return Args.str(args[i]);
  }

  /** The client's selected database. */
  public Database db() {
    return server.keyspace.db(session.db);
  }

  /** Records that {@code key} of the selected database changed (WATCH, blocked pops). */
  public void touched(byte[] key) {
    server.watches.touch(session.db, key);
  }

  /** Wakes clients blocked on {@code key} (a list got elements). */
  public void signalReady(byte[] key) {
    server.blocking.signal(session.db, key);
  }

  public String fullName() {
    return spec.name();
  }
}
