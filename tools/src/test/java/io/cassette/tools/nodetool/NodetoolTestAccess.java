package io.cassette.tools.nodetool;

import java.io.PrintStream;

/** Lets tests of other packages run nodetool in-process. */
public final class NodetoolTestAccess {
  private NodetoolTestAccess() {}

  public static int run(String[] args, PrintStream out, PrintStream err) {
    return NodetoolMain.run(args, out, err);
  }
}
