package io.cassette.tools.nodetool;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code nodetool decommission} and {@code nodetool removenode HOSTID}: start the ring change on
 * the node ({@code POST /api/ringchange}) and print its progress lines as they come until it is
 * done (the node runs it whether or not nodetool stays). A refusal (another ring change in
 * progress, a live node for removenode) or a failure ends with exit status 1.
 */
final class RingChangeRunner {
  static final long POLL_MILLIS = 250;

  private RingChangeRunner() {}

  static void run(AdminClient node, String command, List<String> args, PrintStream out) {
    Map<String, List<String>> params;
    if (command.equals("decommission")) {
      for (String a : args) {
        if (!a.equals("--force") && !a.equals("-f")) {
          throw new NodetoolMain.UsageException("decommission takes no arguments, not '" + a + "'");
        }
      }
      params = Map.of("op", List.of("decommission"));
    } else {
      if (args.size() != 1) {
        throw new NodetoolMain.UsageException("removenode needs one host ID (see nodetool status)");
      }
      params = Map.of("op", List.of("removenode"), "hostId", List.of(args.get(0)));
    }
    String id = node.post("/api/ringchange", params).path("id").asText();
    String error = JobProgress.follow(node, "/api/ringchange", id, out, POLL_MILLIS);
    if (error != null) {
      throw new NodetoolException(error);
    }
  }
}
