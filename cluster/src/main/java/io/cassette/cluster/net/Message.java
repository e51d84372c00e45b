package io.cassette.cluster.net;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One internode message: a verb and opaque payload bytes, plus the header the transport fills
 * in when it is sent. Immutable. Build an outgoing one with {@link #out(Verb, byte[])} and hand
 * it to {@link MessagingService}; the id, sender epoch, creation time and expiry are set there.
 * On the receiving side {@link #from()} is the sender's listen address (from the handshake, so it
 * is right even behind NAT-less loopback aliases).
 *
 * <p>The serialized form is described in {@link MessageSerializer}.
 */
public final class Message {
  /** The sender waits for an answer: the receiver must reply, with FAILURE_RSP if it fails. */
  public static final int FLAG_EXPECTS_RESPONSE = 1;
  /** Set on every answer (the response verb or FAILURE_RSP). */
  public static final int FLAG_RESPONSE = 1 << 1;
  /** Set on FAILURE_RSP; the payload is a {@link RequestFailureReason} code and text. */
  public static final int FLAG_FAILURE = 1 << 2;

  private static final byte[] EMPTY = new byte[0];

  private final long id;
  private final Verb verb;
  private final int flags;
  private final long epoch;
  private final long createdAtMillis;
  private final int expiresInMillis;
  private final byte[] payload;
  // Receiving side only.
  private final InetSocketAddress from;
  private final long arrivalNanos;

  Message(long id, Verb verb, int flags, long epoch, long createdAtMillis, int expiresInMillis,
      byte[] payload, InetSocketAddress from, long arrivalNanos) {
    this.id = id;
    this.verb = verb;
    this.flags = flags;
    this.epoch = epoch;
    this.createdAtMillis = createdAtMillis;
    this.expiresInMillis = expiresInMillis;
    this.payload = payload == null ? EMPTY : payload;
    this.from = from;
    this.arrivalNanos = arrivalNanos;
  }

  /** An outgoing message whose expiry will be the verb's configured timeout. */
  public static Message out(Verb verb, byte[] payload) {
    return new Message(0, verb, 0, 0, 0, 0, payload, null, 0);
  }

  /** An outgoing message with the given payload as UTF-8 text (tests, diagnostics). */
  public static Message out(Verb verb, String payload) {
    return out(verb, payload.getBytes(StandardCharsets.UTF_8));
  }

  /** The same message with an explicit expiry instead of the verb's configured timeout. */
  public Message withTimeoutMillis(int millis) {
    if (millis <= 0) throw new IllegalArgumentException("timeout: " + millis + " (expected: > 0)");
    return new Message(id, verb, flags, epoch, createdAtMillis, millis, payload, from, arrivalNanos);
  }

  /** The header the sender stamps on at send time. */
  Message stamped(long newId, int newFlags, long senderEpoch, long nowMillis, int expiry) {
    return new Message(newId, verb, newFlags, senderEpoch, nowMillis, expiry, payload, null, 0);
  }

  /** Unique per sending node; an answer carries the id of its request. */
  public long id() {
    return id;
  }

  public Verb verb() {
    return verb;
  }

  public int flags() {
    return flags;
  }

  public boolean hasFlag(int flag) {
    return (flags & flag) != 0;
  }

  public boolean isFailure() {
    return hasFlag(FLAG_FAILURE);
  }

  /** The sender's cluster metadata epoch when it sent this message. */
  public long epoch() {
    return epoch;
  }

  /** The sender's wall clock at send time (informational: boards may lack a real-time clock). */
  public long createdAtMillis() {
    return createdAtMillis;
  }

  /** Expiry relative to sending; 0 on an unsent message means "the verb's timeout". */
  public int expiresInMillis() {
    return expiresInMillis;
  }

  /** The payload; callers must not modify it. */
  public byte[] payload() {
    return payload;
  }

  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** The sender's listen address and storage port (received messages only). */
  public InetSocketAddress from() {
    return from;
  }

  /**
   * Expired on the receiving side: counted from arrival with this node's monotonic clock, not
   * from {@link #createdAtMillis()}, so clocks that disagree (no RTC, clock-skew tests) never
   * make every message look expired. The sender's own timeout still bounds the caller's wait.
   */
  public boolean isExpired(long nowNanos) {
    return arrivalNanos != 0 && expiresInMillis > 0
        && nowNanos - arrivalNanos > expiresInMillis * 1_000_000L;
  }

  /** For a FAILURE_RSP: the reason. */
  public RequestFailureReason failureReason() {
    return FailurePayload.reason(payload);
  }

  @Override
  public String toString() {
    return verb + "#" + id + (from != null ? " from " + from : "") + " epoch " + epoch
        + " (" + payload.length + " bytes)";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Message m && m.id == id && m.verb == verb && m.flags == flags
        && m.epoch == epoch && Arrays.equals(m.payload, payload);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + verb.hashCode();
  }
}
