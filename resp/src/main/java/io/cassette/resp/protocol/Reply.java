package io.cassette.resp.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Writes replies in RESP2 or RESP3 into a buffer (the encoder side of the codec). Aggregates
 * are written as a header followed by their elements, so a reply streams without building a
 * tree. RESP3-only types degrade to their RESP2 forms: a map to a flat array, a set to an
 * array, a double to a bulk string, null to the null bulk string or null array.
 *
 * <p>Common replies ({@code +OK}, small integers, nulls) are encoded once and copied.
 * Not thread-safe; one writer is used by one command at a time.
 */
public final class Reply {
  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PONG = "+PONG\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUEUED = "+QUEUED\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL_BULK = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL_ARRAY = "*-1\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EMPTY_ARRAY = "*0\r\n".getBytes(StandardCharsets.US_ASCII);
  /** Integers below this are served from {@link #SMALL_INTEGERS}. */
  private static final int SMALL_INTEGER_LIMIT = 1024;
  private static final byte[][] SMALL_INTEGERS = new byte[SMALL_INTEGER_LIMIT][];
  /** Aggregate headers ({@code *N}, {@code $N}) below this are cached too. */
  private static final int HEADER_CACHE_LIMIT = 128;
  private static final byte[][] ARRAY_HEADERS = new byte[HEADER_CACHE_LIMIT][];
  private static final byte[][] BULK_HEADERS = new byte[HEADER_CACHE_LIMIT][];

  static {
    for (int i = 0; i < SMALL_INTEGER_LIMIT; i++) {
      SMALL_INTEGERS[i] = (":" + i + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }
    for (int i = 0; i < HEADER_CACHE_LIMIT; i++) {
      ARRAY_HEADERS[i] = ("*" + i + "\r\n").getBytes(StandardCharsets.US_ASCII);
      BULK_HEADERS[i] = ("$" + i + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }
  }

  private ByteBuf out;
  private int protocol = 2;
  /** Past this many bytes in the target a bulk throws {@link ReplyTooLargeException}. */
  private long maxBytes = Long.MAX_VALUE;

  /** Bounds what the following replies may put in the target (Long.MAX_VALUE: none). */
  public void maxBytes(long bytes) {
    this.maxBytes = bytes;
  }

  private void checkSize() {
    if (out.readableBytes() > maxBytes) {
      throw new ReplyTooLargeException(out.readableBytes(), maxBytes);
    }
  }

  /** Directs the following replies into {@code buffer}; the caller owns the buffer. */
  public void target(ByteBuf buffer) {
    this.out = buffer;
  }

  public ByteBuf buffer() {
    return out;
  }

  /** 2 or 3, as negotiated by HELLO. */
  public void protocol(int version) {
    this.protocol = version;
  }

  public int protocol() {
    return protocol;
  }

  public boolean resp3() {
    return protocol == 3;
  }

  public void ok() {
    out.writeBytes(OK);
  }

  public void pong() {
    out.writeBytes(PONG);
  }

  public void queued() {
    out.writeBytes(QUEUED);
  }

  /** A status reply ({@code +text}); text must not contain CR or LF. */
  public void status(String text) {
    out.writeByte('+');
    out.writeCharSequence(text, StandardCharsets.UTF_8);
    out.writeBytes(CRLF);
  }

  /** An error reply; {@code text} starts with its code, e.g. "ERR syntax error". */
  public void error(String text) {
    out.writeByte('-');
    out.writeCharSequence(text.replace('\r', ' ').replace('\n', ' '), StandardCharsets.UTF_8);
    out.writeBytes(CRLF);
  }

  public void integer(long value) {
    if (value >= 0 && value < SMALL_INTEGER_LIMIT) {
      out.writeBytes(SMALL_INTEGERS[(int) value]);
      return;
    }
    out.writeByte(':');
    writeDecimal(value);
    out.writeBytes(CRLF);
  }

  public void bulk(byte[] value) {
    if (value == null) {
      nullBulk();
      return;
    }
    checkSize();
    header('$', value.length, BULK_HEADERS);
    out.writeBytes(value);
    out.writeBytes(CRLF);
  }

  public void bulk(byte[] value, int offset, int length) {
    checkSize();
    header('$', length, BULK_HEADERS);
    out.writeBytes(value, offset, length);
    out.writeBytes(CRLF);
  }

  public void bulk(String value) {
    bulk(value.getBytes(StandardCharsets.UTF_8));
  }

  /** A missing value: {@code $-1} in RESP2, {@code _} in RESP3. */
  public void nullBulk() {
    out.writeBytes(protocol == 3 ? NULL3 : NULL_BULK);
  }

  /** A missing aggregate: {@code *-1} in RESP2, {@code _} in RESP3. */
  public void nullArray() {
    out.writeBytes(protocol == 3 ? NULL3 : NULL_ARRAY);
  }

  public void array(int count) {
    header('*', count, ARRAY_HEADERS);
  }

  public void emptyArray() {
    out.writeBytes(EMPTY_ARRAY);
  }

  /** A map of {@code pairs} key/value pairs: {@code %N} in RESP3, an array of 2N in RESP2. */
  public void map(int pairs) {
    if (protocol == 3) {
      header('%', pairs, null);
    } else {
      array(pairs * 2);
    }
  }

  /** A set: {@code ~N} in RESP3, an array in RESP2. */
  public void set(int count) {
    if (protocol == 3) {
      header('~', count, null);
    } else {
      array(count);
    }
  }

  /** An out-of-band push (pub/sub messages): {@code >N} in RESP3, an array in RESP2. */
  public void push(int count) {
    if (protocol == 3) {
      header('>', count, null);
    } else {
      array(count);
    }
  }

  /** A double: {@code ,x} in RESP3, a bulk string in Redis 7.0's %.17g form in RESP2. */
  public void doubleValue(double value) {
    if (protocol == 3) {
      out.writeByte(',');
      out.writeCharSequence(DoubleFormat.resp3(value), StandardCharsets.US_ASCII);
      out.writeBytes(CRLF);
    } else {
      bulk(DoubleFormat.g17(value).getBytes(StandardCharsets.US_ASCII));
    }
  }

  /** A double already written as text (Redis's human long double form): RESP3 double, else bulk. */
  public void doubleText(String text) {
    if (protocol == 3) {
      out.writeByte(',');
      out.writeCharSequence(text, StandardCharsets.US_ASCII);
      out.writeBytes(CRLF);
    } else {
      bulk(text.getBytes(StandardCharsets.US_ASCII));
    }
  }

  /** A boolean: {@code #t}/{@code #f} in RESP3, 1/0 in RESP2. */
  public void bool(boolean value) {
    if (protocol == 3) {
      out.writeBytes(value ? "#t\r\n".getBytes(StandardCharsets.US_ASCII)
          : "#f\r\n".getBytes(StandardCharsets.US_ASCII));
    } else {
      integer(value ? 1 : 0);
    }
  }

  /** Text as a verbatim string in RESP3 ({@code =N\r\ntxt:...}), a bulk string in RESP2. */
  public void verbatim(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (protocol == 3) {
      header('=', bytes.length + 4, null);
      out.writeBytes("txt:".getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(bytes);
      out.writeBytes(CRLF);
    } else {
      bulk(bytes);
    }
  }

  private void header(char type, long count, byte[][] cache) {
    if (cache != null && count >= 0 && count < HEADER_CACHE_LIMIT) {
      out.writeBytes(cache[(int) count]);
      return;
    }
    out.writeByte(type);
    writeDecimal(count);
    out.writeBytes(CRLF);
  }

  private void writeDecimal(long value) {
    if (value == Long.MIN_VALUE) {
      out.writeCharSequence("-9223372036854775808", StandardCharsets.US_ASCII);
      return;
    }
    if (value < 0) {
      out.writeByte('-');
      value = -value;
    }
    long div = 1;
    while (div <= value / 10) {
      div *= 10;
    }
    for (; div > 0; div /= 10) {
      out.writeByte((int) ('0' + (value / div) % 10));
    }
  }
}
