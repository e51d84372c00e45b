package io.cassette.resp.ring;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.resp.protocol.Request;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The executor's side of {@link RedisRing}: serves other nodes' REDIS_REQ on this node's
 * command thread. Commands and EXECs run through the dispatcher as {@link RemoteClient}s;
 * WATCHes and blocked pops of other nodes' clients are kept by origin (the client's node and
 * its token) until EXEC, UNWATCH or CANCEL. Command thread only, except {@link #handle}.
 */
final class PeerRequests {
  /**
   * Other nodes' clients with WATCHed keys here, at most; past it the oldest watch is dropped
   * (its EXEC then runs unchecked: a peer that died holding watches must not grow the heap).
   */
  static final int MAX_REMOTE_WATCHERS = 10_000;
  private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);

  private final RedisRing ring;
  private final ServerContext server;
  private final MessagingService messaging;
  private final AtomicLong remoteIds = new AtomicLong();
  /** Other nodes' clients: WATCHed keys here, by origin. */
  private final LinkedHashMap<Origin, RemoteClient> watchers = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Origin, RemoteClient> eldest) {
      if (size() > MAX_REMOTE_WATCHERS) {
        server.watches.unwatchAll(eldest.getValue().session);
        return true;
      }
      return false;
    }
  };
  /**
   * Requests run lately, by sender: a REDIS_REQ delivered twice (the fault lab's message
   * duplication found INCRs counted twice) runs once; the first delivery answers. A node's
   * message ids restart at 1 when it restarts, so the send time is part of the name.
   */
  static final int RECENT_REQUESTS = 8192;
  private final LinkedHashMap<RequestName, Boolean> recent = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<RequestName, Boolean> eldest) {
      return size() > RECENT_REQUESTS;
    }
  };

  private record RequestName(InetAddress node, long id, long createdAtMillis) {}

  /** Other nodes' clients blocked here (BLPOP), by origin. */
  private final Map<Origin, RemoteClient> blocked = new HashMap<>();

  /** A client of another node, as the executor names it: that node's address and its token. */
  private record Origin(InetAddress node, long token) {}

  PeerRequests(RedisRing ring, ServerContext server, MessagingService messaging) {
    this.ring = ring;
    this.server = server;
    this.messaging = messaging;
  }

  void handle(Message m) {
    RedisMessages.Request r = RedisMessages.request(m.payload());
    if (r.kind() == RedisMessages.LEASE) {
      // At once, not on the command thread: that thread may itself be waiting for a lease.
      byte[][] a = r.commands().get(0);
      LeasePromises.Answer answer = ring.promises().grant(new String(a[0], StandardCharsets.UTF_8), r.token(),
          m.from().getAddress(), java.nio.ByteBuffer.wrap(a[1]).getLong());
      messaging.respond(m, RedisMessages.response(answer.encode()));
      return;
    }
    ring.onCommandThread(() -> run(m, r));
  }

  private void run(Message m, RedisMessages.Request r) {
    if (m.from() != null && recent.put(new RequestName(m.from().getAddress(), m.id(), m.createdAtMillis()), Boolean.TRUE) != null) {
      return; // a duplicate delivery
    }
    Origin origin = new Origin(m.from() == null ? null : m.from().getAddress(), r.token());
    switch (r.kind()) {
      case RedisMessages.COMMAND, RedisMessages.EXEC -> execute(m, r, origin);
      case RedisMessages.WATCH -> {
        RemoteClient w = watchers.get(origin);
        if (w == null) {
          w = new RemoteClient(-remoteIds.incrementAndGet(), null);
          watchers.put(origin, w);
        }
        for (byte[] key : r.commands().get(0)) {
          server.watches.watch(w.session, r.db(), key);
        }
        messaging.respond(m, RedisMessages.response(OK));
      }
      case RedisMessages.UNWATCH -> {
        RemoteClient w = watchers.remove(origin);
        if (w != null) {
          server.watches.unwatchAll(w.session);
        }
      }
      case RedisMessages.CANCEL -> {
        RemoteClient b = blocked.remove(origin);
        if (b != null && !b.answered()) {
          server.blocking.unblock(b.session);
          b.cancel();
        }
      }
      case RedisMessages.PUBLISH -> {
        byte[][] a = r.commands().get(0);
        server.pubsub.publish(server, a[0], a[1]);
      }
      case RedisMessages.EXPIRE -> ring.expireFenced(r.db(), r.commands().get(0)[0]);
      case RedisMessages.COUNT -> messaging.respond(m, RedisMessages.response(
          (":" + ring.ownKeys(r.db()) + "\r\n").getBytes(StandardCharsets.US_ASCII)));
      case RedisMessages.FLUSHED -> {
        server.keyspace.dropCaches();
        server.watches.touchAll(r.db());
      }
      default -> messaging.respondFailure(m, io.cassette.cluster.net.RequestFailureReason.UNKNOWN,
          "unknown REDIS_REQ kind " + r.kind());
    }
  }

  /** Runs a peer's command (or EXEC) through the dispatcher, as a client of this node. */
  private void execute(Message m, RedisMessages.Request r, Origin origin) {
    ring.checkRing();
    boolean blocking = r.kind() == RedisMessages.COMMAND && r.token() != 0;
    java.util.function.Consumer<byte[]> answer = reply -> {
      if (blocking) {
        blocked.remove(origin);
      }
      messaging.respond(m, RedisMessages.response(reply));
    };
    RemoteClient client = r.kind() == RedisMessages.EXEC && r.token() != 0 ? watchers.remove(origin) : null;
    if (client != null) {
      client.next(answer); // the client's WATCHed keys: EXEC checks them
    } else {
      client = new RemoteClient(-remoteIds.incrementAndGet(), answer);
    }
    if (blocking) {
      blocked.put(origin, client);
    }
    Session s = client.session;
    s.db = r.db();
    s.reply.protocol(r.protocol());
    if (r.kind() == RedisMessages.EXEC) {
      s.inMulti = true;
      s.multiQueue.addAll(r.commands());
      s.inbox.add(new Request(new byte[][] {"exec".getBytes(StandardCharsets.US_ASCII)}));
    } else {
      s.inbox.add(new Request(r.commands().get(0)));
    }
    // Run now, not through the ready queue: "ran" must follow the dispatcher's turn for s, and
    // a queued turn may come after any task queued behind it (a busy dispatcher hands the rest
    // of its pass to a later task), which answered the peer with no reply: its client hung.
    server.runner.runNow(s);
    client.ran();
  }
}
