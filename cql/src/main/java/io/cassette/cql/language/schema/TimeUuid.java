package io.cassette.cql.language.schema;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Version 1 (time-based) UUIDs as Cassandra makes them: unique and increasing on this node
 * (the 100 ns clock never repeats), with a random clock sequence and node chosen at start.
 */
public final class TimeUuid {
  /** 100 ns intervals between 1582-10-15 (the UUID epoch) and 1970-01-01. */
  public static final long UUID_EPOCH_OFFSET = 0x01b21dd213814000L;
  private static final AtomicLong LAST = new AtomicLong();
  private static final long CLOCK_SEQ_AND_NODE;

  static {
    SecureRandom r = new SecureRandom();
    long node = r.nextLong() & 0x0000FFFFFFFFFFFFL | 0x0000010000000000L; // multicast bit set
    long clock = r.nextInt(0x3FFF);
    CLOCK_SEQ_AND_NODE = 0x8000000000000000L | (clock << 48) | node;
  }

  private TimeUuid() {}

  public static UUID next() {
    long now = System.currentTimeMillis() * 10_000 + UUID_EPOCH_OFFSET;
    long ts = LAST.updateAndGet(last -> Math.max(last + 1, now));
    return new UUID(msb(ts), CLOCK_SEQ_AND_NODE);
  }

  /** The UUID with timestamp {@code unixMillis} and the given fixed low bits. */
  public static UUID of(long unixMillis, long lsb) {
    return new UUID(msb(unixMillis * 10_000 + UUID_EPOCH_OFFSET), lsb);
  }

  /** The UUID with {@code ticks} 100 ns units after the Unix epoch. */
  public static UUID ofTicks(long ticks, long lsb) {
    return new UUID(msb(ticks + UUID_EPOCH_OFFSET), lsb);
  }

  static long msb(long ts) {
    return ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFFL) << 16) | 0x1000L | ((ts >>> 48) & 0x0FFFL);
  }

  /** Unix milliseconds of a version 1 UUID. */
  public static long unixMillis(UUID u) {
    return (u.timestamp() - UUID_EPOCH_OFFSET) / 10_000;
  }
}
