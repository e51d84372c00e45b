package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * {@code nodetool status} without a keyspace prints what Cassandra 5.0 prints
 * (tools/nodetool/Status.java there): effective ownership when the user keyspaces share their
 * replication, else an "Owns" column of "?" and the note at the end.
 */
class StatusReportTest {
  static final String NODE = "{\"state\":\"UN\",\"address\":\"127.0.0.1\",\"loadBytes\":1024,\"owns\":0.75,"
      + "\"hostId\":\"6d194555-f6eb-41d0-c000-000000000001\",\"rack\":\"rack1\",\"tokens\":[\"1\",\"2\"]}";

  static String status(String extra) throws Exception {
    return Reports.status(new ObjectMapper().readTree("{" + extra + "\"datacenters\":[{\"name\":\"datacenter1\","
        + "\"nodes\":[" + NODE + "]}]}"));
  }

  @Test
  void effectiveOwnershipWhenTheUserKeyspacesAgree() throws Exception {
    String out = status("\"effectiveOwnership\":true,");
    assertThat(out).contains("Owns (effective)").contains("75.0%").doesNotContain("Note:");
  }

  @Test
  void aNoteAndQuestionMarksWhenTheyDoNot() throws Exception {
    String out = status("\"effectiveOwnership\":false,\"note\":\"Non-system keyspaces don't have the same "
        + "replication settings, effective ownership information is meaningless\",");
    String[] lines = out.split("\n", -1);
    assertThat(lines[4]).startsWith("--  Address").contains("Owns ").doesNotContain("effective");
    assertThat(lines[5]).startsWith("UN  127.0.0.1").contains("  ?  ").doesNotContain("%");
    assertThat(lines[6]).isEmpty();
    assertThat(lines[7]).isEqualTo("Note: Non-system keyspaces don't have the same replication settings, "
        + "effective ownership information is meaningless");
  }
}
