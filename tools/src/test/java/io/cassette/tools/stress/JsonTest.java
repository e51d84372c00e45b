package io.cassette.tools.stress;

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
  void errorsNameTheOffset() {
    assertThatThrownBy(() -> Json.read("{\"a\": [1, 2}")).hasMessageContaining("offset 11");
  }
}
