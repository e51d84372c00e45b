package io.cassette.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.server.ResourceSizing;
import io.cassette.server.admin.AdminEndpoints;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin port refuses state changes a web page could send (defect 9 of issue 13): real
 * HTTP over a socket, so the Origin, Referer and Host headers are exactly what a browser
 * would send.
 */
class CrossOriginGuardTest {
  @TempDir Path dir;
  private NioEventLoopGroup loop;
  private AdminHttpServer http;
  private Engine engine;
  private int port;

  @BeforeEach
  void start() throws Exception {
    Config config = ConfigLoader.load(null, Map.of(), Map.of(
        "data_directory", new FlagValue(dir.toString(), "flag --data-dir")));
    engine = Engine.open(EngineOptions.defaults(dir));
    loop = new NioEventLoopGroup(1);
    http = new AdminHttpServer("127.0.0.1", 0, loop);
    AdminEndpoints.register(http, engine, config, ResourceSizing.derive(256L << 20, 2, null, null));
    port = http.start().getPort();
  }

  @AfterEach
  void stop() {
    http.close();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    engine.close();
  }

  /** One request on its own connection; returns the status line and the body. */
  private String[] send(String method, String path, String... headers) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      StringBuilder req = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      boolean hostGiven = false;
      for (String h : headers) {
        req.append(h).append("\r\n");
        hostGiven |= h.toLowerCase().startsWith("host:");
      }
      if (!hostGiven) {
        req.append("Host: 127.0.0.1:").append(port).append("\r\n");
      }
      req.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String status = response.substring(0, response.indexOf("\r\n"));
      String body = response.substring(response.indexOf("\r\n\r\n") + 4);
      return new String[] {status, body};
    }
  }

  private static int code(String[] response) {
    return Integer.parseInt(response[0].split(" ")[1]);
  }

  @Test
  void aWebPageCannotDrainClearSnapshotsOrChangeThroughput() throws Exception {
    String[] drain = send("POST", "/api/drain", "Origin: http://evil.example", "Content-Type: text/plain");
    assertThat(code(drain)).isEqualTo(403);
    assertThat(drain[1]).startsWith("{\"error\":\"cross-origin request refused: POST /api/drain from Origin 'http://evil.example'");
    assertThat(engine.isDrained()).isFalse();

    Files.createDirectories(dir.resolve("data/ks/t-1/snapshots/keep"));
    String[] clear = send("POST", "/api/clearsnapshot?all=true", "Referer: http://evil.example/page.html",
        "Content-Type: application/x-www-form-urlencoded");
    assertThat(code(clear)).isEqualTo(403);
    assertThat(clear[1]).contains("Referer 'http://evil.example/page.html'");

    // Even a page that hides its origin ("no-cors", no Origin header sent) is a simple request.
    String[] blind = send("POST", "/api/compactionthroughput?mib=1", "Content-Type: text/plain");
    assertThat(code(blind)).isEqualTo(403);
    assertThat(blind[1]).contains("needs the header X-Requested-By");
    assertThat(code(send("PUT", "/api/compactionthroughput?mib=1", "Origin: http://evil.example",
        "X-Requested-By: x"))).isEqualTo(403);
    assertThat(code(send("POST", "/api/flush", "Origin: null", "X-Requested-By: x"))).isEqualTo(403);
    assertThat(code(send("POST", "/api/flush", "Origin: http://127.0.0.1:1", "X-Requested-By: x")))
        .as("another port is another origin").isEqualTo(403);

    // DNS rebinding: evil.example now resolves to 127.0.0.1, so the page is "same-origin" by name.
    String[] rebound = send("POST", "/api/drain", "Host: evil.example:" + port,
        "Origin: http://evil.example:" + port, "X-Requested-By: x");
    assertThat(code(rebound)).isEqualTo(403);
    assertThat(engine.isDrained()).isFalse();

    String[] throughput = send("GET", "/api/compactionthroughput", "Origin: http://evil.example");
    assertThat(code(throughput)).as("reads stay open").isEqualTo(200);
    assertThat(throughput[1]).doesNotContain("\"throughputBytesPerSecond\":1048576");
  }

  @Test
  void toolsAndTheAdminPortsOwnOriginMayChangeTheNode() throws Exception {
    assertThat(code(send("POST", "/api/flush", "X-Requested-By: nodetool"))).isEqualTo(200);
    assertThat(code(send("POST", "/api/flush", "Content-Type: application/json"))).isEqualTo(200);
    assertThat(code(send("POST", "/api/compactionthroughput?mib=3", "Origin: http://127.0.0.1:" + port,
        "X-Requested-By: dashboard"))).isEqualTo(200);
    assertThat(code(send("POST", "/api/flush", "Host: localhost:" + port, "Origin: http://localhost:" + port,
        "X-Requested-By: dashboard"))).isEqualTo(200);
    assertThat(code(send("GET", "/api/info"))).isEqualTo(200);

    String[] drain = send("POST", "/api/drain", "X-Requested-By: nodetool");
    assertThat(code(drain)).isEqualTo(200);
    assertThat(engine.isDrained()).isTrue();
    assertThat(send("GET", "/api/info")[1]).contains("\"mode\":\"DRAINED\"");
  }
}
