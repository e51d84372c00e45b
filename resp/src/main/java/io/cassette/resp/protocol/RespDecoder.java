package io.cassette.resp.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the client's bytes into {@link Request}s: RESP multibulk ({@code *N\r\n$len\r\narg\r\n...})
 * and inline commands ({@code PING\r\n}, as telnet sends them). A state machine: each step
 * either completes or returns to wait for more bytes; nothing blocks or throws on short input.
 *
 * <p>A bulk argument is copied into its final array as its bytes arrive, so a large argument
 * costs its own size once, not a growing cumulation buffer. A violation emits one
 * {@link ProtocolError} with Redis's exact text, after which every further byte is discarded
 * (the connection handler closes the channel once the error is written).
 *
 * <p>Not thread-safe: one instance per channel, used on its event loop.
 */
public final class RespDecoder extends ByteToMessageDecoder {
  private static final Logger LOG = LoggerFactory.getLogger(RespDecoder.class);
  /** Redis's limits before AUTH: at most 10 arguments and 16 KB per argument. */
  static final int UNAUTHENTICATED_MAX_MULTIBULK = 10;
  static final long UNAUTHENTICATED_MAX_BULK = 16384;

  private enum State { COMMAND_START, ARGUMENT_LENGTH, ARGUMENT_BODY, DISCARD }

  private final RespLimits limits;
  private volatile boolean authenticated;
  private State state = State.COMMAND_START;
  private byte[][] args;
  private int argCount;
  private byte[] bulk;
  private int bulkFilled;

  /** @param authenticated false while the server wants AUTH first (stricter limits apply) */
  public RespDecoder(RespLimits limits, boolean authenticated) {
    this.limits = limits;
    this.authenticated = authenticated;
  }

  /** Lifts the pre-AUTH limits; callable from any thread. */
  public void setAuthenticated(boolean authenticated) {
    this.authenticated = authenticated;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.isReadable()) {
      switch (state) {
        case COMMAND_START -> {
          if (in.getByte(in.readerIndex()) == '*') {
            if (!readMultibulkLength(in, out)) {
              return;
            }
          } else if (!readInline(in, out)) {
            return;
          }
        }
        case ARGUMENT_LENGTH -> {
          if (!readArgumentLength(in, out)) {
            return;
          }
        }
        case ARGUMENT_BODY -> {
          if (!readArgumentBody(in, out)) {
            return;
          }
        }
        case DISCARD -> {
          in.skipBytes(in.readableBytes());
          return;
        }
        default -> throw new IllegalStateException(state.name());
      }
    }
  }

  /** Reads "*N\r\n"; false when more bytes are needed or an error was emitted. */
  private boolean readMultibulkLength(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    int cr = findLineEnd(in, start);
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
      args = new byte[(int) count][];
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
    int cr = findLineEnd(in, start);
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
    bulk = new byte[(int) length];
    bulkFilled = 0;
    state = State.ARGUMENT_BODY;
    return true;
  }

  private boolean readArgumentBody(ByteBuf in, List<Object> out) {
    int copy = Math.min(in.readableBytes(), bulk.length - bulkFilled);
    in.readBytes(bulk, bulkFilled, copy);
    bulkFilled += copy;
    if (bulkFilled < bulk.length || in.readableBytes() < 2) {
      return false;
    }
    in.skipBytes(2); // CRLF; Redis does not check these two bytes either
    args[argCount++] = bulk;
    bulk = null;
    if (argCount == args.length) {
      out.add(new Request(args));
      args = null;
      state = State.COMMAND_START;
    } else {
      state = State.ARGUMENT_LENGTH;
    }
    return true;
  }

  private boolean readInline(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    int lf = in.indexOf(start, in.writerIndex(), (byte) '\n');
    if (lf < 0) {
      if (in.readableBytes() > limits.maxInlineLength()) {
        fail(in, out, "Protocol error: too big inline request",
            "inline length: " + in.readableBytes() + " (expected: <= "
                + limits.maxInlineLength() + ")");
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
      out.add(new Request(parsed));
    }
    return true;
  }

  /** Index of the '\r' ending the line at {@code start}, needing the byte after it; else -1. */
  private static int findLineEnd(ByteBuf in, int start) {
    int cr = in.indexOf(start, in.writerIndex(), (byte) '\r');
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
    args = null;
    bulk = null;
  }
}
