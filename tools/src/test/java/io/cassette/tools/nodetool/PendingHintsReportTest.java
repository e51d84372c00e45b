package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** nodetool listpendinghints prints Cassandra's table (times in UTC) or its "no hints" line. */
class PendingHintsReportTest {
  @Test
  void cassandrasColumnsAndTimes() throws Exception {
    ObjectMapper json = new ObjectMapper();
    assertThat(Reports.pendingHints(json.readTree("{\"hints\":[]}")))
        .isEqualTo("This node does not have any pending hints\n");
    String out = Reports.pendingHints(json.readTree("{\"hints\":[{\"hostId\":\"00000000-0000-0000-0000-000000000002\","
        + "\"address\":\"127.0.0.2:7000\",\"rack\":\"rack1\",\"dc\":\"datacenter1\",\"status\":\"DOWN\","
        + "\"totalFiles\":2,\"newest\":1764600000123,\"oldest\":1764590000000,\"bytes\":300}]}"));
    assertThat(out).isEqualTo(
        "Host ID                              Address        Rack  DC          Status Total files Newest                  Oldest\n"
      + "00000000-0000-0000-0000-000000000002 127.0.0.2:7000 rack1 datacenter1 DOWN   2           2025-12-01 14:40:00,123 2025-12-01 11:53:20,000\n");
  }
}
