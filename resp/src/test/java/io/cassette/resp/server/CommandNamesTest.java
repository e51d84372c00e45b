package io.cassette.resp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.CommandTable;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The dispatcher's byte lookup finds exactly what the table's lower-case String lookup finds. */
class CommandNamesTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void findsEveryCommandInAnyCase() {
    CommandTable table = CommandTable.standard();
    CommandNames names = new CommandNames(table);
    for (CommandSpec spec : table.all()) {
      String n = spec.name();
      assertThat(names.get(b(n))).isSameAs(spec);
      assertThat(names.get(b(n.toUpperCase(Locale.ROOT)))).isSameAs(spec);
      StringBuilder mixed = new StringBuilder();
      for (int i = 0; i < n.length(); i++) {
        char c = n.charAt(i);
        mixed.append(i % 2 == 0 ? Character.toUpperCase(c) : c);
      }
      assertThat(names.get(b(mixed.toString()))).isSameAs(spec);
    }
  }

  @Test
  void unknownNamesAreNull() {
    CommandNames names = new CommandNames(CommandTable.standard());
    assertThat(names.get(b(""))).isNull();
    assertThat(names.get(b("sett"))).isNull();
    assertThat(names.get(b("se"))).isNull();
    assertThat(names.get(b("s\u00c5t"))).isNull(); // 'Å' is not 'E' lower-cased
    assertThat(names.get(new byte[] {'s', 'e', 't' + 128 - 256})).isNull();
    assertThat(names.get(b("get\0"))).isNull();
  }
}
