package io.cassette.tools.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void roundTrip() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("title", "a \"quoted\" title\nwith </script> inside");
    m.put("list", Arrays.asList(new BigDecimal("1.5"), null, "x", Boolean.TRUE));
    m.put("empty", List.of());
    String text = Json.write(m);
    assertThat(text).doesNotContain("</script>");
    assertThat(Json.read(text)).isEqualTo(m);
  }

  @Test
  void numbersReadAsDecimalsAndTreesForTheAdminApi() {
    assertThat(Json.read("{\"n\": 2, \"x\": 2.5, \"big\": 12345678901234}"))
        .isEqualTo(Map.of("n", new BigDecimal("2"), "x", new BigDecimal("2.5"), "big", new BigDecimal("12345678901234")));
    assertThat(Json.tree("{\"nodes\": [{\"state\": \"UN\"}]}").path("nodes").get(0).path("state").asText())
        .isEqualTo("UN");
    assertThatThrownBy(() -> Json.tree("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Json.read("<html>")).hasMessageContaining("offset 0");
  }

  @Test
  void errorsNameTheOffset() {
    assertThatThrownBy(() -> Json.read("{\"a\": [1, 2}")).hasMessageContaining("offset 11");
  }
}
