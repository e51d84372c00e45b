package io.cassette.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.CasRegister;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.LinearizabilityChecker;
import io.cassette.lab.check.Operation;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Histories the lab recorded on real rings (history-cas-register.txt lines, one key), checked
 * again with the budget the lab uses. {@code pause-300s-r3}: key r3 of the 300 s pause run of
 * bench/results/2026-12-02-fault-lab-each-session8.md, 2,990 operations of which 443
 * indeterminate; the checker's former budget (5,000,000 steps) left it UNKNOWN, which failed
 * the run. In -Pslow: up to a minute of search on a loaded machine.
 */
@Tag("slow")
class RecordedHistoriesTest {
  private static final Pattern LINE = Pattern.compile("^c(\\d+) (\\S+) (read|write (-?\\d+)|cas (-?\\d+)->(-?\\d+)) -> "
      + "(ok (\\S+)|fail|info \\(indeterminate\\)) \\[(\\d+), (\\d+|inf)\\]$");

  @Test
  void aLongPauseRunKeyIsDecidedLinearizableWithinTheLabsBudget() throws Exception {
    List<Operation<CasRegister.Op, Object>> h = read("pause-300s-r3.history.gz");
    assertThat(h).hasSize(2990);
    CheckResult before = new LinearizabilityChecker<Optional<Integer>, CasRegister.Op, Object>(new CasRegister(0),
        5_000_000).checkKey("r3", h);
    assertThat(before.verdict()).as("the former budget").isEqualTo(CheckResult.Verdict.UNKNOWN);
    CheckResult now = new LinearizabilityChecker<Optional<Integer>, CasRegister.Op, Object>(new CasRegister(0),
        CasRegisterWorkload.SEARCH_STEPS).checkKey("r3", h);
    assertThat(now.verdict()).as(String.join("\n", now.explanation())).isEqualTo(CheckResult.Verdict.OK);
  }

  /** Parses what {@code Operation.toString} printed for the CAS register, in call order. */
  private static List<Operation<CasRegister.Op, Object>> read(String resource) throws Exception {
    List<Operation<CasRegister.Op, Object>> h = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(RecordedHistoriesTest.class.getResourceAsStream(resource)), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        Matcher m = LINE.matcher(line);
        assertThat(m.matches()).as(line).isTrue();
        int client = Integer.parseInt(m.group(1));
        String key = m.group(2);
        CasRegister.Op op = m.group(3).equals("read") ? new CasRegister.Read()
            : m.group(4) != null ? new CasRegister.Write(Integer.parseInt(m.group(4)))
            : new CasRegister.Cas(Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)));
        long call = Long.parseLong(m.group(9));
        if (m.group(7).startsWith("ok")) {
          String v = m.group(8);
          Object out = v.equals("null") ? null : v.equals("true") || v.equals("false") ? (Object) Boolean.valueOf(v)
              : Integer.valueOf(v);
          h.add(Operation.ok(client, key, op, out, call, Long.parseLong(m.group(10))));
        } else if (m.group(7).equals("fail")) {
          h.add(Operation.fail(client, key, op, call, Long.parseLong(m.group(10))));
        } else {
          h.add(Operation.indeterminate(client, key, op, call));
        }
      }
    }
    h.sort(Comparator.comparingLong(Operation::call));
    return h;
  }
}
