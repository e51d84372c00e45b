package io.cassette.server.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import java.net.URI;
import java.util.Locale;

/**
 * Refuses state-changing requests (any method but GET, HEAD and OPTIONS) that a web page in
 * a browser on the node's machine could have sent: any page can POST to 127.0.0.1:9180, and
 * the browser only hides the answer. Until the admin port has credentials, two checks stand
 * in for them, as in Jenkins' and Hadoop's CSRF filters:
 *
 * <ol>
 *   <li>an {@code Origin} (or, without it, a {@code Referer}) must be the admin port's own
 *       origin: {@code http://HOST:PORT} with the port the server listens on and a host that
 *       is an IP address, {@code localhost} or the host it was started with, and that equals
 *       the request's {@code Host} (a DNS-rebinding page has a name there, not an address);
 *   <li>the request must carry {@value #HEADER} or a {@code Content-Type} outside the three
 *       a browser may send cross-origin without asking first (form, multipart, text/plain),
 *       so a page cannot even send it "blind" with {@code mode: no-cors}.
 * </ol>
 * nodetool sends {@value #HEADER}; curl users add {@code -H 'X-Requested-By: me'}. GETs stay open.
 */
public final class CrossOriginGuard {
  /** The header a non-browser client sends to show it is not a web page. */
  public static final String HEADER = "X-Requested-By";

  private final String boundHost;

  /** @param boundHost the host or address the admin port was started with */
  public CrossOriginGuard(String boundHost) {
    this.boundHost = boundHost == null ? "" : boundHost.toLowerCase(Locale.ROOT);
  }

  /** Null if the request may go on, else why it is refused (for a 403 with a JSON error). */
  public String refusal(HttpRequest req, int boundPort) {
    HttpMethod m = req.method();
    if (m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS) {
      return null;
    }
    HttpHeaders h = req.headers();
    String origin = h.get(HttpHeaderNames.ORIGIN);
    String source = origin != null ? origin : h.get(HttpHeaderNames.REFERER);
    if (source != null && !sameOrigin(source, h.get(HttpHeaderNames.HOST), boundPort)) {
      return "cross-origin request refused: " + m.name() + " " + pathOf(req) + " from "
          + (origin != null ? "Origin " : "Referer ") + quoted(source)
          + " changes the node; only the admin port's own origin may do that";
    }
    String requestedBy = h.get(HEADER);
    if ((requestedBy == null || requestedBy.isBlank()) && simpleContentType(h.get(HttpHeaderNames.CONTENT_TYPE))) {
      return "refused: " + m.name() + " " + pathOf(req) + " changes the node and needs the header "
          + HEADER + " (any value) or a JSON body, so that a web page cannot send it;"
          + " e.g. curl -X POST -H '" + HEADER + ": me' ...";
    }
    return null;
  }

  private boolean sameOrigin(String source, String hostHeader, int boundPort) {
    URI uri;
    try {
      uri = new URI(source.trim());
    } catch (java.net.URISyntaxException e) {
      return false; // includes Origin: null (sandboxed frames, file: pages)
    }
    boolean https = "https".equalsIgnoreCase(uri.getScheme());
    if (!("http".equalsIgnoreCase(uri.getScheme()) || https) || uri.getHost() == null) {
      return false;
    }
    int port = uri.getPort() == -1 ? (https ? 443 : 80) : uri.getPort();
    if (port != boundPort) {
      return false;
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    if (hostHeader != null) {
      String expected = (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
      if (!hostHeader.trim().toLowerCase(Locale.ROOT).equals(expected)
          && !(port == 80 && hostHeader.trim().equalsIgnoreCase(host))) {
        return false;
      }
    }
    return host.equals("localhost") || host.equals(boundHost) || isAddressLiteral(host);
  }

  private static boolean isAddressLiteral(String host) {
    if (host.startsWith("[") && host.endsWith("]")) {
      return true; // IPv6
    }
    return host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
  }

  /** The content types a browser sends cross-origin without a preflight (and none at all). */
  private static boolean simpleContentType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return true;
    }
    String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    return type.equals("application/x-www-form-urlencoded") || type.equals("multipart/form-data")
        || type.equals("text/plain");
  }

  private static String pathOf(HttpRequest req) {
    String uri = req.uri();
    int q = uri.indexOf('?');
    return q < 0 ? uri : uri.substring(0, q);
  }

  private static String quoted(String s) {
    String cut = s.length() > 100 ? s.substring(0, 100) + "..." : s;
    return "'" + cut + "'";
  }
}
