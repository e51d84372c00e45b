package io.cassette.tools.nodetool;

import com.fasterxml.jackson.databind.JsonNode;
import io.cassette.tools.json.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Calls a node's admin HTTP API ({@code /api/...}, JSON) as nodetool calls Cassandra over JMX.
 * Every failure becomes a {@link NodetoolException} whose message is fit to print as is.
 */
final class AdminClient {
  /** A node that does not accept a connection in this time is reported as down. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** Flush and compact wait for the engine; a large compaction on an SD card takes a while. */
  static final Duration OPERATION_TIMEOUT = Duration.ofHours(6);

  /** Sent on every call; the node refuses POSTs without it (or a JSON body) as possibly from a web page. */
  static final String REQUESTED_BY = "X-Requested-By";

  private final String host;
  private final int port;
  private final HttpClient http;
  /** The Authorization header sent on every call, or null. */
  private final String authorization;

  /** https (with this context) or plain http (null). */
  private final javax.net.ssl.SSLContext tls;

  AdminClient(String host, int port) {
    this(host, port, null);
  }

  AdminClient(String host, int port, String authorization) {
    this(host, port, authorization, null);
  }

  /** @param tls https with this context's trust (and client certificate), or null for http */
  AdminClient(String host, int port, String authorization, javax.net.ssl.SSLContext tls) {
    this.host = host;
    this.port = port;
    this.authorization = authorization;
    this.tls = tls;
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1);
    if (tls != null) {
      b.sslContext(tls);
    }
    this.http = b.build();
  }

  JsonNode get(String path, Map<String, List<String>> parameters) {
    return call("GET", path, parameters);
  }

  JsonNode post(String path, Map<String, List<String>> parameters) {
    return call("POST", path, parameters);
  }

  private JsonNode call(String method, String path, Map<String, List<String>> parameters) {
    URI uri = URI.create((tls != null ? "https://" : "http://") + hostForUri() + ":" + port + path + query(parameters));
    // The header shows the node this is not a web page (the admin port refuses state changes
    // from pages: server's CrossOriginGuard).
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(OPERATION_TIMEOUT)
        .header(REQUESTED_BY, "cassette-nodetool")
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      builder.header("Authorization", authorization);
    }
    HttpRequest request = builder.build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (ConnectException | HttpConnectTimeoutException e) {
      throw new NodetoolException("Failed to connect to '" + host + ":" + port + "' - "
          + e.getClass().getSimpleName() + ": '" + reason(e) + "'. Is the node running, with its"
          + " HTTP admin port (http_port) on " + port + "?");
    } catch (HttpTimeoutException e) {
      throw new NodetoolException("No answer from '" + host + ":" + port + "' within "
          + OPERATION_TIMEOUT.toHours() + " h");
    } catch (javax.net.ssl.SSLException e) {
      throw new NodetoolException("TLS with '" + host + ":" + port + "' failed - " + e.getClass().getSimpleName()
          + ": '" + reason(e) + "'" + (tls == null ? "" : ". Does --truststore hold the CA that signed the node's"
          + " certificate, and does the certificate name " + host + "?"));
    } catch (IOException e) {
      String hint = tls == null && String.valueOf(e.getMessage()).contains("header parser received no bytes")
          ? ". If the admin port has http_encryption_options enabled, add --ssl" : "";
      throw new NodetoolException("Failed to talk to '" + host + ":" + port + "' - "
          + e.getClass().getSimpleName() + ": '" + reason(e) + "'" + hint);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodetoolException("Interrupted");
    }
    JsonNode body = parse(response.body(), response.statusCode());
    if (response.statusCode() == 404 && body.path("error").asText("").startsWith("no such endpoint")) {
      throw new NodetoolException("'" + host + ":" + port + "' has no " + path
          + ": it is not a Cassette admin port, or the node is older than this nodetool");
    }
    if (response.statusCode() != 200) {
      throw new NodetoolException(body.path("error").asText("HTTP " + response.statusCode()
          + " from " + path));
    }
    return body;
  }

  private JsonNode parse(String text, int status) {
    try {
      return Json.tree(text);
    } catch (IllegalArgumentException e) {
      throw new NodetoolException("'" + host + ":" + port + "' answered HTTP " + status
          + " with something that is not JSON: it is not a Cassette admin port");
    }
  }

  private String hostForUri() {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  private static String query(Map<String, List<String>> parameters) {
    StringBuilder q = new StringBuilder();
    for (Map.Entry<String, List<String>> e : parameters.entrySet()) {
      for (String v : e.getValue()) {
        q.append(q.length() == 0 ? '?' : '&')
            .append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
            .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
      }
    }
    return q.toString();
  }

  private static String reason(Throwable e) {
    Throwable t = e;
    while (t.getMessage() == null && t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? "Connection refused" : t.getMessage();
  }
}
