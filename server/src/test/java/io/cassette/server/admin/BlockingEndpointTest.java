package io.cassette.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Response;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A long operation (a compaction) must not stop the admin port from answering health checks. */
class BlockingEndpointTest {
  @Test
  void healthAnswersWhileAnOperationRunsAndTheOperationIsAnsweredWhenDone() throws Exception {
    NioEventLoopGroup loop = new NioEventLoopGroup(1);
    ExecutorService operations = Executors.newSingleThreadExecutor();
    CountDownLatch release = new CountDownLatch(1);
    AdminHttpServer http = new AdminHttpServer("127.0.0.1", 0, loop);
    http.register("/health", req -> Response.json("{\"status\":\"UP\"}"));
    http.registerBlocking("/api/compact", req -> {
      try {
        release.await(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Response.json("{\"ok\":true,\"method\":\"" + req.method() + "\"}");
    }, operations);
    int port = http.start().getPort();
    try {
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      CompletableFuture<HttpResponse<String>> compact = client.sendAsync(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/compact"))
              .header("X-Requested-By", "test").POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

      HttpResponse<String> health = client.send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + port + "/health")).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
      assertThat(compact).isNotDone();

      release.countDown();
      HttpResponse<String> done = compact.get(10, TimeUnit.SECONDS);
      assertThat(done.statusCode()).isEqualTo(200);
      assertThat(done.body()).isEqualTo("{\"ok\":true,\"method\":\"POST\"}");
    } finally {
      release.countDown();
      http.close();
      operations.shutdownNow();
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
