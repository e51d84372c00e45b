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

  /** The command name lower-cased (ASCII) for lookup in the command table. */
  public String nameLower() {
    byte[] n = args[0];
    char[] c = new char[n.length];
    for (int i = 0; i < n.length; i++) {
      int b = n[i] & 0xFF;
      c[i] = (char) (b >= 'A' && b <= 'Z' ? b + 32 : b);
    }
    return new String(c);
  }
}
