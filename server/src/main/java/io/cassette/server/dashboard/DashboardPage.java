package io.cassette.server.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The dashboard: one HTML page with its CSS and JavaScript inline, so it works on a board with
 * no internet. It polls {@code /api/dashboard.json} every {@code POLL_MS} and draws its charts on
 * canvases by hand (no framework, no external resource). Text from the node (slow statements,
 * table names) is set with {@code textContent}, never parsed as HTML.
 *
 * <p>The page is kept as three resources beside this class, {@code dashboard.html},
 * {@code dashboard.css} and {@code dashboard.js}, so each can be edited and checked as what it
 * is; the CSS and JavaScript are put in place of the {@code /* dashboard.css *&#47;} and
 * {@code /* dashboard.js *&#47;} lines of the HTML once, when the class loads, and served as one page.
 *
 * <p>Elements with an {@code id} hold one figure each, so tests (and curious users) can find them.
 */
final class DashboardPage {
  private DashboardPage() {}

  static final String HTML = inline(inline(resource("dashboard.html"), "dashboard.css"), "dashboard.js");

  /** Replaces the line {@code /* name *&#47;} of {@code page} with the resource {@code name}. */
  private static String inline(String page, String name) {
    String marker = "/* " + name + " */\n";
    int at = page.indexOf(marker);
    if (at < 0) {
      throw new IllegalStateException("dashboard.html has no line '/* " + name + " */' to replace");
    }
    return page.substring(0, at) + resource(name) + page.substring(at + marker.length());
  }

  private static String resource(String name) {
    try (InputStream in = DashboardPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the classpath beside " + DashboardPage.class.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the dashboard resource " + name, e);
    }
  }
}
