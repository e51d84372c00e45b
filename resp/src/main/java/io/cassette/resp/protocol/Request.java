package io.cassette.resp.protocol;

/**
 * One command as the client sent it: the command name followed by its arguments, each as
 * raw bytes (Redis arguments are binary-safe). Built by {@link RespDecoder}; immutable by
 * convention (the arrays are owned by the request and never changed after decoding).
 *
 * <p>{@link #budgetBytes()} are held in the node's {@link RequestBudget} from decoding until
 * whoever consumes the request (the dispatcher, after running it or dropping it) releases them.
 */
public final class Request {
  private final byte[][] args;
  private final long budgetBytes;

  public Request(byte[][] args) {
    this(args, 0);
  }

  public Request(byte[][] args, long budgetBytes) {
    this.args = args;
    this.budgetBytes = budgetBytes;
  }

  /** The command name and arguments; element 0 is the name. */
  public byte[][] args() {
    return args;
  }

  public int size() {
    return args.length;
  }

  /** Bytes of the node's request budget this request holds until it is released. */
  public long budgetBytes() {
    return budgetBytes;
  }
}
