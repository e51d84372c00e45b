package io.cassette.tools.stress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One accepted form of an option group (cassandra-stress's GroupedOptions): {@code -rate} has
 * the form {@code threads=N [throttle=N/s] [fixed=N/s]} and the form {@code [threads>=N]
 * [threads<=N] [auto]}. A list of tokens matches a form when every token is one of its options
 * with a valid value, no option is given twice, and every required option is present.
 */
public final class OptionForm {
  private final String name;
  private final List<OptionSpec> options;

  public OptionForm(String name, List<OptionSpec> options) {
    this.name = name;
    this.options = List.copyOf(options);
  }

  public String name() {
    return name;
  }

  /** The usage line, e.g. {@code -rate threads=N [throttle=N/s] [fixed=N/s]}. */
  public String usage(String group) {
    StringBuilder b = new StringBuilder(group);
    for (OptionSpec o : options) {
      b.append(' ').append(o.usage());
    }
    return b.toString();
  }

  List<OptionSpec> options() {
    return options;
  }

  /**
   * Matches the tokens against this form.
   *
   * @return option prefix to value ("" for a present flag), defaults filled in; or null when
   *     the tokens do not fit, with the reason appended to {@code problems}
   */
  Map<String, String> match(List<String> tokens, List<Problem> problems) {
    Map<String, String> values = new LinkedHashMap<>();
    int consumed = 0;
    for (String token : tokens) {
      OptionSpec spec = find(token);
      if (spec == null) {
        problems.add(new Problem(consumed, "unknown option '" + token + "'"));
        return null;
      }
      if (values.containsKey(spec.prefix())) {
        problems.add(new Problem(consumed, "option '" + spec.prefix() + "' given twice"));
        return null;
      }
      consumed++;
      if (spec.isFlag()) {
        values.put(spec.prefix(), "");
        continue;
      }
      String value = token.substring(spec.prefix().length());
      if (!spec.valuePattern().matcher(value).matches()) {
        problems.add(new Problem(consumed, "invalid value '" + value + "' for '" + spec.prefix()
            + "' (expected " + spec.placeholder() + ")"));
        return null;
      }
      values.put(spec.prefix(), value);
    }
    List<String> missing = new ArrayList<>();
    for (OptionSpec o : options) {
      if (!values.containsKey(o.prefix())) {
        if (o.required()) {
          missing.add(o.prefix() + o.placeholder());
        } else if (o.defaultValue() != null) {
          values.put(o.prefix(), o.defaultValue());
        }
      }
    }
    if (!missing.isEmpty()) {
      problems.add(new Problem(tokens.size() + 1, "missing " + String.join(", ", missing)));
      return null;
    }
    return values;
  }

  /** Why a form rejected the tokens, and how many tokens it accepted before that. */
  record Problem(int consumed, String message) {}

  private OptionSpec find(String token) {
    // The longest matching prefix wins, so "threads>=" is not mistaken for "threads=".
    OptionSpec best = null;
    for (OptionSpec o : options) {
      if (o.accepts(token) && (best == null || o.prefix().length() > best.prefix().length())) {
        best = o;
      }
    }
    return best;
  }
}
