package io.cassette.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.commitlog.CommitLogSegment;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A card whose fsync stalls: a node in batch mode whose commit-log fsyncs take 300 ms. The
 * latency doctor on the admin port must name the commit log and the setting to change.
 */
class SlowFsyncDoctorTest {
  @TempDir Path dir;

  @AfterEach
  void healTheCard() {
    CommitLogSegment.simulatedSyncStallNanos = 0;
  }

  @Test
  void doctorNamesTheCommitLogAndCommitlogSyncWhenFsyncStalls() throws Exception {
    int http;
    try (ServerSocket s = new ServerSocket(0)) {
      http = s.getLocalPort();
    }
    Config config = ConfigLoader.load(null, Map.of(), Map.of(
        "data_directory", new FlagValue(dir.toString(), "test"),
        "commitlog_sync", new FlagValue("batch", "test"),
        "native_transport_port", new FlagValue("0", "test"),
        "resp_port", new FlagValue("0", "test"),
        "http_port", new FlagValue(Integer.toString(http), "test")));
    try (CassetteNode node = new CassetteNode(config, ResourceSizing.forThisJvm(null, null))) {
      node.start();
      Table t = node.engine().createTable(TableSpec.withDefaults("ks", "t", UUID.randomUUID()));
      CommitLogSegment.simulatedSyncStallNanos = Duration.ofMillis(300).toNanos();
      for (int k = 0; k < 3; k++) { // batch mode: each write waits for its stalled fsync
        t.apply(PartitionUpdate.builder("ks", "t", new byte[] {(byte) k})
            .row(Row.of(Bytes.EMPTY, List.of(Cell.live("v", new byte[] {1}, k + 1)))).build());
      }
      CommitLogSegment.simulatedSyncStallNanos = 0;

      HttpResponse<String> doctor = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + http + "/api/latency/doctor")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(doctor.statusCode()).isEqualTo(200);
      assertThat(doctor.body()).contains("commitlog-fsync").contains("commitlog_sync");
    }
  }
}
