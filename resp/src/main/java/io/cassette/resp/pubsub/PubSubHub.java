package io.cassette.resp.pubsub;

import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import io.cassette.resp.util.Glob;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Channel and pattern subscriptions and message delivery. Messages go straight to the
 * subscribers' sockets; a subscriber whose unsent output passes the pub/sub output buffer
 * limit is disconnected (see {@link ServerContext#deliver}). Command thread only.
 */
public final class PubSubHub {
  private final Map<ByteBuffer, Set<Session>> channels = new HashMap<>();
  private final Map<ByteBuffer, Set<Session>> patterns = new HashMap<>();
  /**
   * Heap one subscription costs besides its name: the name's wrapper and array header, an entry
   * in the session's set and one in the channel's set (and that set, for a new channel).
   */
  public static final int SUBSCRIPTION_OVERHEAD_BYTES = 200;
  /** Heap the subscriptions of all clients take, as counted with {@link #cost}. */
  private long bytes;
  /** Subscribing beyond this many bytes is refused (a client could otherwise run the heap out). */
  private volatile long maxBytes = Long.MAX_VALUE;

  /** What subscribing to {@code name} costs the heap, as counted against {@link #maxBytes}. */
  public static long cost(byte[] name) {
    return name.length + SUBSCRIPTION_OVERHEAD_BYTES;
  }

  public void maxBytes(long limit) {
    this.maxBytes = limit;
  }

  public long maxBytes() {
    return maxBytes;
  }

  public long bytes() {
    return bytes;
  }

  public boolean subscribe(Session s, byte[] channel) {
    ByteBuffer c = ByteBuffer.wrap(channel.clone());
    if (!s.channels.add(c)) {
      return false;
    }
    bytes += cost(channel);
    channels.computeIfAbsent(c, x -> new LinkedHashSet<>()).add(s);
    return true;
  }

  public boolean unsubscribe(Session s, ByteBuffer channel) {
    if (!s.channels.remove(channel)) {
      return false;
    }
    bytes -= channel.remaining() + SUBSCRIPTION_OVERHEAD_BYTES;
    removeFrom(channels, channel, s);
    return true;
  }

  public boolean psubscribe(Session s, byte[] pattern) {
    ByteBuffer p = ByteBuffer.wrap(pattern.clone());
    if (!s.patterns.add(p)) {
      return false;
    }
    bytes += cost(pattern);
    patterns.computeIfAbsent(p, x -> new LinkedHashSet<>()).add(s);
    return true;
  }

  public boolean punsubscribe(Session s, ByteBuffer pattern) {
    if (!s.patterns.remove(pattern)) {
      return false;
    }
    bytes -= pattern.remaining() + SUBSCRIPTION_OVERHEAD_BYTES;
    removeFrom(patterns, pattern, s);
    return true;
  }

  private static void removeFrom(Map<ByteBuffer, Set<Session>> map, ByteBuffer k, Session s) {
    Set<Session> set = map.get(k);
    if (set != null) {
      set.remove(s);
      if (set.isEmpty()) {
        map.remove(k);
      }
    }
  }

  /** Drops every subscription of a closing session. */
  public void removeAll(Session s) {
    for (ByteBuffer c : new ArrayList<>(s.channels)) {
      unsubscribe(s, c);
    }
    for (ByteBuffer p : new ArrayList<>(s.patterns)) {
      punsubscribe(s, p);
    }
  }

  /** Sends {@code message} to every subscriber; returns how many received it. */
  public int publish(ServerContext server, byte[] channel, byte[] message) {
    int receivers = 0;
    Set<Session> direct = channels.get(ByteBuffer.wrap(channel));
    if (direct != null) {
      for (Session s : new ArrayList<>(direct)) {
        server.deliver(s, r -> {
          r.push(3);
          r.bulk("message");
          r.bulk(channel);
          r.bulk(message);
        });
        receivers++;
      }
    }
    for (Map.Entry<ByteBuffer, Set<Session>> e : new ArrayList<>(patterns.entrySet())) {
      byte[] pattern = bytes(e.getKey());
      if (Glob.matches(pattern, channel)) {
        for (Session s : new ArrayList<>(e.getValue())) {
          server.deliver(s, r -> {
            r.push(4);
            r.bulk("pmessage");
            r.bulk(pattern);
            r.bulk(channel);
            r.bulk(message);
          });
          receivers++;
        }
      }
    }
    return receivers;
  }

  /** Active channels matching {@code pattern} (all when null). */
  public List<byte[]> channels(byte[] pattern) {
    List<byte[]> out = new ArrayList<>();
    for (ByteBuffer c : channels.keySet()) {
      byte[] b = bytes(c);
      if (pattern == null || Glob.matches(pattern, b)) {
        out.add(b);
      }
    }
    return out;
  }

  public int subscribers(byte[] channel) {
    Set<Session> set = channels.get(ByteBuffer.wrap(channel));
    return set == null ? 0 : set.size();
  }

  public int patternCount() {
    return patterns.size();
  }

  public int channelCount() {
    return channels.size();
  }

  public static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
