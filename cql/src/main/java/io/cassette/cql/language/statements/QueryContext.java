package io.cassette.cql.language.statements;

import io.cassette.coordinator.ClientContext;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Request;
import io.cassette.cql.ClientState;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.language.Errors;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Everything one execution needs besides the compiled statement: the bound values, the
 * client's state, "now", and the write timestamp. One per request; not thread-safe.
 */
public final class QueryContext {
  /** The value of an unset bind marker (compare by identity). */
  public static final byte[] UNSET = new byte[0];

  public final QueryOptions options;
  public final ClientState state;
  public final Services services;
  /** Whether this client reads masked columns in clear (DataMasking; null until first asked). */
  Boolean clearValues;
  private final List<ByteBuffer> values;
  private final long nowMillis;
  private final long nowInSeconds;
  private long timestamp = Long.MIN_VALUE;
  private Request request;
  /** Whether a write may be left to complete after execute returns ({@link #later}); else null. */
  private boolean answersLater;
  /** The write left to complete, or null. */
  private java.util.concurrent.CompletableFuture<Void> pending;
  /** A SELECT answered later: its reads, and the answer to come; else null. */
  private PrefetchedReads prefetched;
  private java.util.concurrent.CompletableFuture<io.cassette.cql.Result> pendingResult;
  /** The columns a SELECT reads, as Cassandra prints them in a tombstone warning ("*" or "v, w"). */
  private String readColumns = "*";
  /** The row limit a SELECT's read asked before the size bound cut it (0: none); a warning prints it. */
  private int askedRowLimit;
  /** A SELECT's partition keys for these values and the restrictions they were made from (SelectStatement's). */
  List<byte[]> partitionKeys;
  Object partitionKeysOf;

  public QueryContext(QueryOptions options, ClientState state, Services services, List<ByteBuffer> values) {
    this.options = options;
    this.state = state;
    this.services = services;
    this.values = values;
    this.nowMillis = System.currentTimeMillis();
    this.nowInSeconds = options.nowInSeconds() != Integer.MIN_VALUE ? options.nowInSeconds()
        : nowMillis / 1000;
  }

  /** Lets the statement's write complete after it returns (the caller answers from {@link #pending}). */
  public void answerLater() {
    answersLater = true;
  }

  /** Whether the statement may hand its write over with {@link #later}. */
  public boolean answersLater() {
    return answersLater;
  }

  /** Hands the statement's write over: its outcome is the statement's answer. Once. */
  public void later(java.util.concurrent.CompletableFuture<Void> write) {
    if (pending != null) {
      throw new IllegalStateException("a statement hands one write over");
    }
    pending = write;
  }

  /** The write handed over, or null (the statement finished within execute). */
  public java.util.concurrent.CompletableFuture<Void> pending() {
    return pending;
  }

  /** The reads of a SELECT that answers later, or null (reads wait for their answer). */
  PrefetchedReads prefetched() {
    return prefetched;
  }

  void prefetched(PrefetchedReads reads) {
    this.prefetched = reads;
  }

  /** Hands the statement's answer over: it completes when its reads have (once, instead of {@link #later}). */
  void laterResult(java.util.concurrent.CompletableFuture<io.cassette.cql.Result> result) {
    if (pending != null || pendingResult != null) {
      throw new IllegalStateException("a statement hands one answer over");
    }
    pendingResult = result;
  }

  /** The answer handed over by a SELECT, or null (see {@link #pending} for a write). */
  public java.util.concurrent.CompletableFuture<io.cassette.cql.Result> pendingResult() {
    return pendingResult;
  }

  /** The value bound to marker {@code index}: null for NULL, {@link #UNSET} for unset. */
  public byte[] bound(int index) {
    if (index >= values.size()) {
      throw Errors.invalid("There were " + index + " markers(?) in CQL but " + values.size()
          + " bound variables");
    }
    if (values instanceof io.cassette.cql.BoundValues bound) {
      byte[] v = bound.bytes(index); // the decoder's own copy, made for this request: no wrapper, no second copy
      return v == io.cassette.cql.BoundValues.UNSET ? UNSET : v;
    }
    ByteBuffer b = values.get(index);
    if (b == null) {
      return null;
    }
    if (b == QueryOptions.UNSET) {
      return UNSET;
    }
    if (b.hasArray() && b.arrayOffset() == 0 && b.position() == 0 && b.remaining() == b.array().length) {
      return b.array(); // the decoder's own copy, made for this request: no second copy
    }
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  public int valueCount() {
    return values.size();
  }

  public long nowInSeconds() {
    return nowInSeconds;
  }

  public long nowMillis() {
    return nowMillis;
  }

  /** The write timestamp (µs) of this request: the client's default or a fresh server one. */
  public long timestamp() {
    if (timestamp == Long.MIN_VALUE) {
      timestamp = options.defaultTimestamp() != Long.MIN_VALUE ? options.defaultTimestamp()
          : services.clock().nextMicros();
    }
    return timestamp;
  }

  /** What the coordinator is told of this request: levels, timeout, client. */
  public String readColumns() {
    return readColumns;
  }

  public void readColumns(String columns) {
    this.readColumns = columns;
  }

  public int askedRowLimit() {
    return askedRowLimit;
  }

  public void askedRowLimit(int rowLimit) {
    this.askedRowLimit = rowLimit;
  }

  public Request request() {
    if (request == null) {
      request = new Request(level(options.consistency()), level(options.serialConsistency()),
          Request.DEFAULT_TIMEOUT, state == null ? ClientContext.INTERNAL : state.coordinatorContext());
    }
    return request;
  }

  private static ConsistencyLevel level(io.cassette.cql.Consistency c) {
    return c == null ? null : ConsistencyLevel.ofCode(c.code);
  }
}
