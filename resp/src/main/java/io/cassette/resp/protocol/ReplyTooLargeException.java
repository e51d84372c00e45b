package io.cassette.resp.protocol;

/**
 * One command's reply grew past the client's hard output limit while it was being written
 * (LRANGE 0 -1 of a long list, HGETALL, MGET of large values): the client would be closed for
 * it once the reply was queued, as Redis's client-output-buffer-limit does, so it is closed now,
 * before the rest of the reply takes direct memory. Not a client error reply: part of the
 * reply is already written into the client's buffer.
 */
public final class ReplyTooLargeException extends RuntimeException {
  public ReplyTooLargeException(long bytes, long limit) {
    super("reply of more than " + bytes + " bytes, over the client's hard output limit of " + limit, null,
        false, false);
  }
}
