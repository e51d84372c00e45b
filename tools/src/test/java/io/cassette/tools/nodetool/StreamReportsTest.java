package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class StreamReportsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void throughputInCassandrasUnits() throws Exception {
    assertThat(StreamReports.throughput(JSON.readTree("{\"throughputBytesPerSecond\": 25165824}"), false))
        .isEqualTo("Current stream throughput: 201 Mb/s\n");
    assertThat(StreamReports.throughput(JSON.readTree("{\"throughputBytesPerSecond\": 25165824}"), true))
        .isEqualTo("Current stream throughput: 24.0 MiB/s\n");
    assertThat(StreamReports.throughput(JSON.readTree("{\"throughputBytesPerSecond\": 0}"), false))
        .isEqualTo("Current stream throughput: unlimited\n");
    assertThat(StreamReports.bytesPerSecond("200", false)).isEqualTo(25_000_000);
    assertThat(StreamReports.bytesPerSecond("2", true)).isEqualTo(2 << 20);
    assertThatThrownBy(() -> StreamReports.bytesPerSecond("fast", false))
        .hasMessageContaining("needs a whole number, not 'fast'");
  }

  @Test
  void netstatsShowsTheModeAndOnlyStreamsInProgress() throws Exception {
    String text = StreamReports.netstats(JSON.readTree("""
        {"mode": "LEAVING", "totalSent": 1000, "totalReceived": 0,
         "outgoing": [{"id": 1, "purpose": "Unbootstrap", "peer": "127.0.0.3", "keyspace": "ks", "table": "t",
                       "bytes": 1000, "partitions": 10, "done": false},
                      {"id": 2, "purpose": "Repair", "peer": "127.0.0.2", "keyspace": "ks", "table": "u",
                       "bytes": 5, "partitions": 1, "done": true}],
         "incoming": []}"""));
    assertThat(text).startsWith("Mode: LEAVING\nUnbootstrap 1\n    /127.0.0.3\n        Sending ks.t: 1000 bytes, 10 partitions so far\n")
        .doesNotContain("Repair");
    assertThat(StreamReports.netstats(JSON.readTree("{\"mode\": \"NORMAL\", \"outgoing\": [], \"incoming\": []}")))
        .contains("Not sending any streams.");
  }
}
