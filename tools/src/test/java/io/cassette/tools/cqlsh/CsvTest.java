package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {
  private static List<List<String>> read(String text) throws IOException {
    Csv.RecordReader r = new Csv.RecordReader(new StringReader(text), ',', '"', "");
    List<List<String>> out = new ArrayList<>();
    List<String> rec;
    while ((rec = r.next()) != null) {
      out.add(rec);
    }
    return out;
  }

  @Test
  void quotesOnlyWhatNeedsItAndKeepsNullApartFromEmpty() {
    assertThat(Csv.format(Arrays.asList("1", "plain", null, "", "a,b", "say \"hi\"", "two\nlines"), ',', '"', ""))
        .isEqualTo("1,plain,,\"\",\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"");
  }

  @Test
  void readsWhatItWritesIncludingLineBreaksInQuotes() throws IOException {
    List<String> record = Arrays.asList("1", "plain", null, "", "a,b", "say \"hi\"", "two\r\nlines");
    String text = Csv.format(record, ',', '"', "") + "\r\n" + Csv.format(List.of("2", "x"), ',', '"', "") + "\n";
    assertThat(read(text)).containsExactly(record, List.of("2", "x"));
  }

  @Test
  void blankLinesAreSkippedAndAnUnclosedQuoteIsAnError() throws IOException {
    assertThat(read("a,b\n\n\nc,d")).containsExactly(List.of("a", "b"), List.of("c", "d"));
    assertThatThrownBy(() -> read("1,\"open\n2,3\n")).isInstanceOf(IOException.class)
        .hasMessageContaining("line 1").hasMessageContaining("not closed");
  }

  @Test
  void copyCommandIsParsedWithColumnsAndOptions() {
    CopyCommand.Spec s = CopyCommand.parse("COPY ks.users (id, name) TO '/tmp/u.csv' WITH HEADER = true AND DELIMITER='|';",
        null, java.nio.file.Path.of(""));
    assertThat(s.keyspace()).isEqualTo("ks");
    assertThat(s.table()).isEqualTo("users");
    assertThat(s.columns()).containsExactly("id", "name");
    assertThat(s.export()).isTrue();
    assertThat(s.file().toString()).isEqualTo("/tmp/u.csv");
    assertThat(s.header()).isTrue();
    assertThat(s.delimiter()).isEqualTo('|');
    CopyCommand.Spec from = CopyCommand.parse("copy users from 'u.csv'", "ks", java.nio.file.Path.of("/data"));
    assertThat(from.export()).isFalse();
    assertThat(from.keyspace()).isEqualTo("ks");
    assertThat(from.file().toString()).isEqualTo("/data/u.csv");
    assertThat(from.header()).isFalse();
    assertThatThrownBy(() -> CopyCommand.parse("COPY ks.t SIDEWAYS 'x'", null, java.nio.file.Path.of("")))
        .hasMessage("Improper COPY command.");
  }
}
