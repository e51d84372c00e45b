package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultPrinterTest {
  @Test
  void tableHasLeftAlignedHeaderRightAlignedValuesAndARule() {
    String t = ResultPrinter.table(List.of("k", "value"), List.of(List.of("1", "a"), List.of("22", "longer text")));
    assertThat(t).isEqualTo("""
         k  | value
        ----+-------------
          1 |           a
         22 | longer text
        """);
  }

  @Test
  void emptyResultStillShowsTheHeader() {
    assertThat(ResultPrinter.table(List.of("key", "v"), List.of())).isEqualTo(" key | v\n-----+---\n");
  }

  @Test
  void expandedPrintsOneBlockPerRowNumberedAcrossPages() {
    String e = ResultPrinter.expanded(List.of("k", "name"), List.of(List.of("1", "ann"), List.of("2", "bo")), 5);
    assertThat(e).isEqualTo("""
        @ Row 5
        ------+-----
         k    | 1
         name | ann

        @ Row 6
        ------+-----
         k    | 2
         name | bo

        """);
  }
}
