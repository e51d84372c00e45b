package io.cassette.resp.command;

/**
 * A command's error reply. {@code getMessage()} is the exact Redis text including its code
 * ("ERR ...", "WRONGTYPE ..."). Thrown on the cold path only; no stack trace is filled in.
 */
public final class RedisException extends RuntimeException {
  public RedisException(String redisText) {
    super(redisText, null, false, false);
  }
}
