package io.cassette.resp.stream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * One consumer group (Redis's streamCG): last delivered ID, entries-read counter, consumers
 * and the pending entries list (PEL), as one sub-row of the stream ({@link StreamLayout#group}).
 * Names are kept as ISO-8859-1 strings: byte-preserving, and their order is the unsigned byte
 * order Redis's radix trees give. Layout (do not change: it is on disk):
 *
 * <pre>
 *  version(1) | lastId(16) | entriesRead(8, -1 = unknown)
 *  | consumers(4) { nameLen(4) name seenTime(8) }*
 *  | pending(4)   { id(16) consumerIndex(4) deliveryTime(8) deliveryCount(8) }*
 * </pre>
 *
 * The PEL lives in this row, so it is bounded by what a row may hold: a group with millions
 * of unacknowledged entries is not what this layout is for (entries themselves are rows).
 */
final class ConsumerGroup {
  static final int VERSION = 1;
  static final long INVALID_ENTRIES_READ = -1;

  /** A pending entry (streamNACK). */
  static final class Nack {
    String consumer;
    long deliveryTime;
    long deliveryCount;

    Nack(String consumer, long deliveryTime, long deliveryCount) {
      this.consumer = consumer;
      this.deliveryTime = deliveryTime;
      this.deliveryCount = deliveryCount;
    }
  }

  static final class Consumer {
    final String name;
    long seenTime;
    /** This consumer's pending IDs (the group's PEL entries it owns). */
    final TreeMap<StreamId, Nack> pel = new TreeMap<>();

    Consumer(String name, long seenTime) {
      this.name = name;
      this.seenTime = seenTime;
    }
  }

  StreamId lastId;
  long entriesRead;
  final TreeMap<String, Consumer> consumers = new TreeMap<>();
  final TreeMap<StreamId, Nack> pel = new TreeMap<>();

  ConsumerGroup(StreamId lastId, long entriesRead) {
    this.lastId = lastId;
    this.entriesRead = entriesRead;
  }

  static String name(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  static byte[] bytes(String name) {
    return name.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The consumer, or null; refreshes its seen-time when {@code now} > 0 (SLC_DEFAULT). */
  Consumer lookup(String name, long now) {
    Consumer c = consumers.get(name);
    if (c != null && now > 0) {
      c.seenTime = now;
    }
    return c;
  }

  /** Creates the consumer; null when it exists. */
  Consumer create(String name, long now) {
    if (consumers.containsKey(name)) {
      return null;
    }
    Consumer c = new Consumer(name, now);
    consumers.put(name, c);
    return c;
  }

  /** Adds or moves pending entry {@code id} to {@code consumer}. */
  void assign(StreamId id, Nack nack, Consumer consumer) {
    if (nack.consumer != null && !nack.consumer.equals(consumer.name)) {
      Consumer old = consumers.get(nack.consumer);
      if (old != null) {
        old.pel.remove(id);
      }
    }
    nack.consumer = consumer.name;
    pel.put(id, nack);
    consumer.pel.put(id, nack);
  }

  /** Removes pending entry {@code id}; true if it was pending. */
  boolean ack(StreamId id) {
    Nack n = pel.remove(id);
    if (n == null) {
      return false;
    }
    Consumer c = consumers.get(n.consumer);
    if (c != null) {
      c.pel.remove(id);
    }
    return true;
  }

  /** Deletes {@code consumer} and its pending entries; returns how many it had. */
  long delete(Consumer consumer) {
    long n = consumer.pel.size();
    for (StreamId id : consumer.pel.keySet()) {
      pel.remove(id);
    }
    consumers.remove(consumer.name);
    return n;
  }

  byte[] encode() {
    int size = 1 + 16 + 8 + 4 + 4;
    Map<String, Integer> index = new TreeMap<>();
    int i = 0;
    for (Consumer c : consumers.values()) {
      size += 4 + c.name.length() + 8;
      index.put(c.name, i++);
    }
    size += pel.size() * (16 + 4 + 8 + 8);
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put((byte) VERSION);
    b.putLong(lastId.ms()).putLong(lastId.seq()).putLong(entriesRead);
    b.putInt(consumers.size());
    for (Consumer c : consumers.values()) {
      byte[] n = bytes(c.name);
      b.putInt(n.length).put(n).putLong(c.seenTime);
    }
    b.putInt(pel.size());
    for (Map.Entry<StreamId, Nack> e : pel.entrySet()) {
      Integer owner = index.get(e.getValue().consumer);
      b.putLong(e.getKey().ms()).putLong(e.getKey().seq()).putInt(owner == null ? -1 : owner)
          .putLong(e.getValue().deliveryTime).putLong(e.getValue().deliveryCount);
    }
    return b.array();
  }

  static ConsumerGroup decode(byte[] in) {
    ByteBuffer b = ByteBuffer.wrap(in);
    int version = b.get();
    if (version != VERSION) {
      throw new IllegalStateException("consumer group row version " + version + " (expected: "
          + VERSION + ")");
    }
    ConsumerGroup g = new ConsumerGroup(new StreamId(b.getLong(), b.getLong()), b.getLong());
    int n = b.getInt();
    Consumer[] byIndex = new Consumer[n];
    for (int i = 0; i < n; i++) {
      byte[] name = new byte[b.getInt()];
      b.get(name);
      Consumer c = new Consumer(name(name), b.getLong());
      g.consumers.put(c.name, c);
      byIndex[i] = c;
    }
    int p = b.getInt();
    for (int i = 0; i < p; i++) {
      StreamId id = new StreamId(b.getLong(), b.getLong());
      int owner = b.getInt();
      Nack nack = new Nack(owner < 0 ? null : byIndex[owner].name, b.getLong(), b.getLong());
      g.pel.put(id, nack);
      if (owner >= 0) {
        byIndex[owner].pel.put(id, nack);
      }
    }
    return g;
  }
}
