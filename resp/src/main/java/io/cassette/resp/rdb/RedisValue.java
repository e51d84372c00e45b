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
}
