package io.cassette.resp.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the client's bytes into {@link Request}s: RESP multibulk ({@code *N\r\n$len\r\narg\r\n...})
 * and inline commands ({@code PING\r\n}, as telnet sends them). A state machine: each step
 * either completes (and has consumed input) or returns to wait for more bytes; nothing blocks,
 * loops without consuming, or throws on any input.
 *
 * <p>Memory follows the bytes that arrived, never the lengths a client announces: a bulk
 * argument's array starts small and doubles as its bytes come (ending at exactly its length),
 * as does the argument array of a multibulk. Every byte held for a request that is not yet
 * executed is reserved in the node-wide {@link RequestBudget}; the finished {@link Request}
 * carries its reservation to the dispatcher, which releases it. A violation (a limit, the
 * budget, malformed framing) emits one {@link ProtocolError} with Redis's exact text, after
 * which every further byte is discarded (the connection handler closes the channel once the
 * error is written).
 *
 * <p>Not thread-safe: one instance per channel, used on its event loop.
 */
public final class RespDecoder extends ByteToMessageDecoder {
  private static final Logger LOG = LoggerFactory.getLogger(RespDecoder.class);
  /** Redis's limits before AUTH: at most 10 arguments and 16 KB per argument. */
  static final int UNAUTHENTICATED_MAX_MULTIBULK = 10;
  static final long UNAUTHENTICATED_MAX_BULK = 16384;
  /** First capacity of a bulk argument whose bytes have not all arrived; doubles from here. */
  static final int INITIAL_BULK_CAPACITY = 4096;
  /** First capacity of the argument array of a multibulk; doubles from here. */
  static final int INITIAL_ARGS_CAPACITY = 16;
  /** Budget charged per argument slot and per argument array, beyond the argument's bytes. */
  static final int SLOT_BYTES = 8;
  static final int ARRAY_OVERHEAD_BYTES = 16;
  /** Redis has no text for this limit of ours (it has no node-wide budget). */
  public static final String BUDGET_EXHAUSTED =
      "Protocol error: too much request data in flight on this node";

  private enum State { COMMAND_START, ARGUMENT_LENGTH, ARGUMENT_BODY, DISCARD }

  private final Supplier<RespLimits> limitsSource;
  private final RequestBudget budget;
  private volatile boolean authenticated;
  private State state = State.COMMAND_START;
  /** Limits read once per command, so CONFIG SET takes effect at the next command. */
  private RespLimits limits;
  private byte[][] args;
  private int argCount;
  /** Arguments the current multibulk announced. */
  private int argsExpected;
  private byte[] bulk;
  private int bulkFilled;
  /** Announced length of the bulk argument being received. */
  private int bulkLength;
  /** Bytes reserved in the budget for the request being received. */
  private long held;

  /** A decoder with fixed limits and no node budget (tests). */
  public RespDecoder(RespLimits limits, boolean authenticated) {
    this(() -> limits, null, authenticated);
  }

  /**
   * @param limits        current limits (read at the start of each command)
   * @param budget        node-wide request budget, or null for none
   * @param authenticated false while the server wants AUTH first (stricter limits apply)
   */
  public RespDecoder(Supplier<RespLimits> limits, RequestBudget budget, boolean authenticated) {
    this.limitsSource = limits;
    this.budget = budget;
    this.authenticated = authenticated;
    this.limits = limits.get();
  }

  /** Lifts the pre-AUTH limits; callable from any thread. */
  public void setAuthenticated(boolean authenticated) {
    this.authenticated = authenticated;
  }

  /** Bytes this decoder holds in the budget for a request not yet complete (tests). */
  long held() {
    return held;
  }

  /** Received bytes not yet consumed by the state machine (tests). */
  int buffered() {
    return actualReadableBytes();
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.isReadable()) {
      int before = in.readerIndex();
      boolean progressed = switch (state) {
        case COMMAND_START -> {
          limits = limitsSource.get();
          yield in.getByte(before) == '*' ? readMultibulkLength(in, out) : readInline(in, out);
        }
        case ARGUMENT_LENGTH -> readArgumentLength(in, out);
        case ARGUMENT_BODY -> readArgumentBody(in, out);
        case DISCARD -> {
          in.skipBytes(in.readableBytes());
          yield false;
        }
      };
      if (!progressed) {
        return;
      }
      if (in.readerIndex() == before) {
        // Every completed step consumes input; anything else is a bug that must not spin.
        fail(in, out, "Protocol error: internal decoder error", "no progress in " + state);
        return;
      }
    }
  }

  /** Releases what a half-received request held when the channel goes away. */
  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    dropPartial();
  }

  /** Reads "*N\r\n"; false when more bytes are needed or an error was emitted. */
  private boolean readMultibulkLength(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    int cr = findLineEnd(in, start, limits.maxInlineLength());
    if (cr < 0) {
      if (in.readableBytes() > limits.maxInlineLength()) {
        fail(in, out, "Protocol error: too big mbulk count string",
            "multibulk count line longer than " + limits.maxInlineLength());
      }
      return false;
    }
    long count = parseLong(in, start + 1, cr);
    in.readerIndex(cr + 2);
    int max = authenticated ? limits.maxMultibulkLength() : UNAUTHENTICATED_MAX_MULTIBULK;
    if (count == Long.MIN_VALUE || count > limits.maxMultibulkLength()) {
      fail(in, out, "Protocol error: invalid multibulk length",
          "length: " + count + " (expected: <= " + limits.maxMultibulkLength() + ")");
      return false;
    }
    if (count > max) {
      fail(in, out, "Protocol error: unauthenticated multibulk length",
          "length: " + count + " (expected: <= " + max + " before AUTH)");
      return false;
    }
    if (count > 0) {
      int capacity = (int) Math.min(count, INITIAL_ARGS_CAPACITY);
      if (!reserve(in, out, ARRAY_OVERHEAD_BYTES + (long) capacity * SLOT_BYTES)) {
        return false;
      }
      args = new byte[capacity][];
      argsExpected = (int) count;
      argCount = 0;
      state = State.ARGUMENT_LENGTH;
    }
    return true;
  }

  private boolean readArgumentLength(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    byte first = in.getByte(start);
    if (first != '$') {
      fail(in, out, "Protocol error: expected '$', got '" + (char) (first & 0xFF) + "'",
          "byte " + (first & 0xFF) + " where a bulk length was expected");
      return false;
    }
    int cr = findLineEnd(in, start, limits.maxInlineLength());
    if (cr < 0) {
      if (in.readableBytes() > limits.maxInlineLength()) {
        fail(in, out, "Protocol error: too big bulk count string",
            "bulk length line longer than " + limits.maxInlineLength());
      }
      return false;
    }
    long length = parseLong(in, start + 1, cr);
    in.readerIndex(cr + 2);
    if (length < 0 || length > limits.maxBulkLength() || length > Integer.MAX_VALUE - 8) {
      fail(in, out, "Protocol error: invalid bulk length",
          "length: " + length + " (expected: <= " + limits.maxBulkLength() + ")");
      return false;
    }
    if (!authenticated && length > UNAUTHENTICATED_MAX_BULK) {
      fail(in, out, "Protocol error: unauthenticated bulk length",
          "length: " + length + " (expected: <= " + UNAUTHENTICATED_MAX_BULK + " before AUTH)");
      return false;
    }
    if (argCount == args.length) {
      int capacity = (int) Math.min(argsExpected, 2L * args.length);
      if (!reserve(in, out, (long) (capacity - args.length) * SLOT_BYTES)) {
        return false;
      }
      args = Arrays.copyOf(args, capacity);
    }
    bulkLength = (int) length;
    // All of it already here: one exact array. Else start small and grow with the bytes.
    int capacity = in.readableBytes() >= bulkLength ? bulkLength
        : Math.min(bulkLength, Math.max(INITIAL_BULK_CAPACITY, in.readableBytes()));
    if (!reserve(in, out, ARRAY_OVERHEAD_BYTES + (long) capacity)) {
      return false;
    }
    bulk = new byte[capacity];
    bulkFilled = 0;
    state = State.ARGUMENT_BODY;
    return true;
  }

  private boolean readArgumentBody(ByteBuf in, List<Object> out) {
    while (bulkFilled < bulkLength && in.isReadable()) {
      if (bulkFilled == bulk.length) {
        int wanted = bulkFilled + in.readableBytes();
        int capacity = (int) Math.min(bulkLength, Math.max(wanted, 2L * bulk.length));
        if (!reserve(in, out, capacity - bulk.length)) {
          return false;
        }
        bulk = Arrays.copyOf(bulk, capacity);
      }
      int copy = Math.min(in.readableBytes(), bulk.length - bulkFilled);
      in.readBytes(bulk, bulkFilled, copy);
      bulkFilled += copy;
    }
    if (bulkFilled < bulkLength || in.readableBytes() < 2) {
      return false;
    }
    in.skipBytes(2); // CRLF; Redis does not check these two bytes either
    args[argCount++] = bulk;
    bulk = null;
    if (argCount == argsExpected) {
      out.add(new Request(args, held));
      held = 0;
      args = null;
      state = State.COMMAND_START;
    } else {
      state = State.ARGUMENT_LENGTH;
    }
    return true;
  }

  private boolean readInline(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    int max = limits.maxInlineLength();
    int searchEnd = (int) Math.min(in.writerIndex(), (long) start + max + 1);
    int lf = in.indexOf(start, searchEnd, (byte) '\n');
    if (lf < 0) {
      if (in.readableBytes() > max) {
        fail(in, out, "Protocol error: too big inline request",
            "inline length: " + in.readableBytes() + " (expected: <= " + max + ")");
      }
      return false;
    }
    int end = lf;
    if (end > start && in.getByte(end - 1) == '\r') {
      end--;
    }
    byte[] line = new byte[end - start];
    in.getBytes(start, line);
    in.readerIndex(lf + 1);
    byte[][] parsed = InlineSplitter.split(line);
    if (parsed == null) {
      fail(in, out, "Protocol error: unbalanced quotes in request", "inline request with open quote");
      return false;
    }
    if (parsed.length > 0) {
      if (!authenticated && parsed.length > UNAUTHENTICATED_MAX_MULTIBULK) {
        fail(in, out, "Protocol error: unauthenticated multibulk length",
            "inline arguments: " + parsed.length + " before AUTH");
        return false;
      }
      long cost = ARRAY_OVERHEAD_BYTES;
      for (byte[] a : parsed) {
        cost += SLOT_BYTES + ARRAY_OVERHEAD_BYTES + a.length;
      }
      if (!reserve(in, out, cost)) {
        return false;
      }
      out.add(new Request(parsed, held));
      held = 0;
    }
    return true;
  }

  /** Reserves {@code bytes} for the request being received; on failure emits the error. */
  private boolean reserve(ByteBuf in, List<Object> out, long bytes) {
    if (budget != null) {
      if (!budget.tryReserve(held, bytes)) {
        fail(in, out, BUDGET_EXHAUSTED, "needs " + bytes + " more bytes, holds " + held
            + ", node in flight " + budget.used() + " of " + budget.limit());
        return false;
      }
    }
    held += bytes;
    return true;
  }

  private void dropPartial() {
    if (budget != null) {
      budget.release(held);
    }
    held = 0;
    args = null;
    bulk = null;
  }

  /**
   * Index of the '\r' ending the line at {@code start}, needing the byte after it; else -1.
   * Looks no further than {@code max} bytes: a longer line is an error anyway.
   */
  private static int findLineEnd(ByteBuf in, int start, int max) {
    int end = (int) Math.min(in.writerIndex(), (long) start + max + 2);
    int cr = in.indexOf(start, end, (byte) '\r');
    return cr < 0 || cr + 1 >= in.writerIndex() ? -1 : cr;
  }

  /**
   * Parses a decimal as Redis's string2ll does (no '+', no leading zeros, no spaces);
   * Long.MIN_VALUE when malformed.
   */
  static long parseLong(ByteBuf in, int from, int to) {
    int len = to - from;
    if (len <= 0 || len > 20) {
      return Long.MIN_VALUE;
    }
    int i = from;
    boolean negative = false;
    if (in.getByte(i) == '-') {
      negative = true;
      i++;
      if (i == to) {
        return Long.MIN_VALUE;
      }
    }
    if (in.getByte(i) == '0' && to - i > 1) {
      return Long.MIN_VALUE;
    }
    long value = 0;
    for (; i < to; i++) {
      int d = in.getByte(i) - '0';
      if (d < 0 || d > 9 || value > (Long.MAX_VALUE - d) / 10) {
        return Long.MIN_VALUE;
      }
      value = value * 10 + d;
    }
    return negative ? -value : value;
  }

  private void fail(ByteBuf in, List<Object> out, String message, String detail) {
    in.skipBytes(in.readableBytes());
    LOG.debug("RESP protocol error: {} ({})", message, detail);
    out.add(new ProtocolError(message, detail));
    state = State.DISCARD;
    dropPartial();
  }
}
