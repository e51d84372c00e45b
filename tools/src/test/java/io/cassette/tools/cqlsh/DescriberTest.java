package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DescriberTest {
  @Test
  void columnizeFillsColumnsTopToBottomWithinEightyCharacters() {
    List<String> names = List.of("ks", "system", "system_auth", "system_distributed", "system_schema",
        "system_traces", "system_views", "system_virtual_schema");
    // Python pads every column, the last one too, to its width.
    assertThat(Describer.columnize(names)).isEqualTo(
        "ks      system_auth         system_schema  system_views         \n"
        + "system  system_distributed  system_traces  system_virtual_schema\n");
    assertThat(Describer.columnize(List.of("only"))).isEqualTo("only\n");
    assertThat(Describer.columnize(List.of())).isEqualTo("<empty>\n");
  }

  @Test
  void qualifiedNamesSplitOutsideQuotes() {
    assertThat(Describer.split("ks.t", null)).containsExactly("ks", "t");
    assertThat(Describer.split("\"My.Ks\".t", null)).containsExactly("\"My.Ks\"", "t");
    assertThat(Describer.split("t", "ks")).containsExactly("ks", "t");
  }
}
