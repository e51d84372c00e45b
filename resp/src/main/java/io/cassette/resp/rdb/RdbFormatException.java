package io.cassette.resp.rdb;

import java.io.IOException;

/** An RDB file or DUMP payload that is not what the format says: the message names the offset. */
public final class RdbFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public RdbFormatException(String message) {
    super(message);
  }
}
