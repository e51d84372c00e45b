package io.cassette.resp.session;

import io.cassette.resp.protocol.Reply;
import io.netty.channel.Channel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client connection's Redis state: selected database, protocol, name, authentication,
 * MULTI queue, WATCHed keys, subscriptions and blocking state.
 *
 * <p>Thread-safety: {@link #inbox} and {@link #drainScheduled} are shared between the
 * channel's event loop (producer) and the command thread (consumer); every other field is
 * touched only by the command thread.
 */
public final class Session {
  public final long id;
  public final Channel channel;
  public final long createdMillis = System.currentTimeMillis();
  /** Decoded requests and protocol errors waiting for the command thread, in arrival order. */
  public final Queue<Object> inbox = new ConcurrentLinkedQueue<>();
  public final AtomicBoolean drainScheduled = new AtomicBoolean();
  /** Reply bytes written to the channel and not yet taken by the socket (any thread). */
  public final java.util.concurrent.atomic.AtomicLong pendingOutput =
      new java.util.concurrent.atomic.AtomicLong();
  /** True while commands wait because the client does not read its replies (any thread). */
  public volatile boolean outputPaused;
  /** Since when the output has been over the soft limit; 0 when under it. */
  public long softLimitSinceMillis;
  /** This client's reply writer (carries its protocol version). */
  public final Reply reply = new Reply();

  public String name = "";
  public int db;
  public boolean authenticated;
  /** The ACL user this client runs as; null means the default user. */
  public io.cassette.resp.acl.AclUser user;
  public boolean closeAfterReply;
  public boolean closed;
  public String lastCommand = "NULL";
  public long lastInteractionMillis = createdMillis;
  public boolean noEvict;
  /** CLIENT REPLY OFF: this client's replies are dropped (command thread only). */
  public boolean replyOff;
  /** CLIENT REPLY SKIP: drop the reply of the running command / of the next one. */
  public boolean skipThisReply;
  public boolean skipNextReply;
  public String libName = "";
  public String libVersion = "";
  /** Runs when AUTH succeeds (lifts the decoder's pre-AUTH limits). */
  public Runnable onAuthenticated = () -> { };

  public boolean inMulti;
  public boolean multiFailed;
  public final List<byte[][]> multiQueue = new ArrayList<>();
  /**
   * Request-budget bytes of the commands in {@link #multiQueue}: received and not yet executed,
   * they stay counted as requests in flight until EXEC, DISCARD, RESET or the client's close
   * (see {@code ServerContext.dropMultiQueue}), so MULTI cannot hold the heap without bound.
   */
  public long multiBytes;
  public final Set<KeyRef> watched = new HashSet<>();
  /** A WATCHed key changed since WATCH: EXEC must fail. */
  public boolean watchDirty;

  public final Set<ByteBuffer> channels = new LinkedHashSet<>();
  public final Set<ByteBuffer> patterns = new LinkedHashSet<>();

  /** Non-null while a blocking command waits for data. */
  public Blocked blocked;

  public Session(long id, Channel channel) {
    this.id = id;
    this.channel = channel;
  }

  public int protocol() {
    return reply.protocol();
  }

  public int subscriptions() {
    return channels.size() + patterns.size();
  }

  /** A key in one database, as WATCH and blocking commands refer to it. */
  public record KeyRef(int db, ByteBuffer key) {
    public static KeyRef of(int db, byte[] key) {
      return new KeyRef(db, ByteBuffer.wrap(key));
    }
  }

  /** A blocking command waiting for one of {@code keys} to receive data. */
  public static final class Blocked {
    public final byte[][] args;
    public final List<KeyRef> keys;
    public final long deadlineMillis;
    public ScheduledFuture<?> timeout;

    public Blocked(byte[][] args, List<KeyRef> keys, long deadlineMillis) {
      this.args = args;
      this.keys = keys;
      this.deadlineMillis = deadlineMillis;
    }
  }
}
