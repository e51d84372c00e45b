package io.cassette.resp.rdb;

import java.util.List;

/**
 * One Redis value as the RDB codec reads and writes it, apart from how Redis or Cassette
 * stores it: the elements in order (a list's order; a hash's, set's or sorted set's order is
 * whatever the source had). Element bytes are never copied again once here.
 */
public sealed interface RedisValue {
  /** Number of elements (1 for a string). */
  long size();

  record Str(byte[] value) implements RedisValue {
    public long size() {
      return 1;
    }
  }

  record ListValue(List<byte[]> elements) implements RedisValue {
    public long size() {
      return elements.size();
    }
  }

  record SetValue(List<byte[]> members) implements RedisValue {
    public long size() {
      return members.size();
    }
  }

  /** Field/value pairs. */
  record HashValue(List<byte[]> fields, List<byte[]> values) implements RedisValue {
    public long size() {
      return fields.size();
    }
  }

  record ZSetValue(List<byte[]> members, double[] scores) implements RedisValue {
    public long size() {
      return members.size();
    }
  }

  /**
   * A stream ({@link RdbStream}): live entries in ID order, the stream's IDs and counters,
   * consumer groups. IDs are (ms, seq) pairs of unsigned 64-bit numbers held in longs.
   */
  record StreamValue(List<StreamEntry> entries, long lastMs, long lastSeq, long firstMs, long firstSeq,
                     long maxDeletedMs, long maxDeletedSeq, long entriesAdded,
                     List<StreamGroup> groups) implements RedisValue {
    public long size() {
      return entries.size();
    }
  }

  /** One stream entry: field, value, field, value ... */
  record StreamEntry(long ms, long seq, List<byte[]> fields) {}

  /** A consumer group; {@code entriesRead} -1 when unknown. */
  record StreamGroup(byte[] name, long lastMs, long lastSeq, long entriesRead,
                     List<StreamNack> pending, List<StreamConsumer> consumers) {}

  /** A pending entry of a group, owned by the consumer whose PEL lists its ID. */
  record StreamNack(long ms, long seq, long deliveryTime, long deliveryCount) {}

  /** A consumer and the IDs of its pending entries (each also in the group's list). */
  record StreamConsumer(byte[] name, long seenTime, List<long[]> pending) {}
}
