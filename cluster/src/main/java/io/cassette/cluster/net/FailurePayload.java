package io.cassette.cluster.net;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The payload of a FAILURE_RSP: a 16-bit {@link RequestFailureReason} code followed by a
 * UTF-8 detail text (may be empty), e.g. "no handler for TEST_REQ".
 */
final class FailurePayload {
  /** Detail texts are cut to this many bytes; they are for logs, not for data. */
  static final int MAX_DETAIL_BYTES = 512;

  private FailurePayload() {}

  static byte[] encode(RequestFailureReason reason, String detail) {
    byte[] text = detail == null ? new byte[0] : detail.getBytes(StandardCharsets.UTF_8);
    int n = Math.min(text.length, MAX_DETAIL_BYTES);
    ByteBuffer b = ByteBuffer.allocate(2 + n);
    b.putShort((short) reason.code).put(text, 0, n);
    return b.array();
  }

  static RequestFailureReason reason(byte[] payload) {
    if (payload.length < 2) return RequestFailureReason.UNKNOWN;
    return RequestFailureReason.fromCode(((payload[0] & 0xff) << 8) | (payload[1] & 0xff));
  }

  static String detail(byte[] payload) {
    if (payload.length <= 2) return "";
    return new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
  }
}
