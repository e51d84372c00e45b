package io.cassette.resp.protocol;

/**
 * One command as the client sent it: the command name followed by its arguments, each as
 * raw bytes (Redis arguments are binary-safe). Built by {@link RespDecoder}; immutable by
 * convention (the arrays are owned by the request and never changed after decoding).
 */
public final class Request {
  private final byte[][] args;

  public Request(byte[][] args) {
    this.args = args;
  }

  /** The command name and arguments; element 0 is the name. */
  public byte[][] args() {
    return args;
  }

  public int size() {
    return args.length;
  }
}
