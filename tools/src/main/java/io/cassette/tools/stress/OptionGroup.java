package io.cassette.tools.stress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Chooses which form of an option group a list of tokens matches, as cassandra-stress's
 * {@code GroupedOptions.select} does: the first form (in the order given) that accepts every
 * token. When none does, the error names the offending token and lists every accepted form.
 *
 * @param formIndex which form matched (index into the forms given to {@link #select})
 * @param values option prefix to value, defaults included; "" for a present flag
 */
public record OptionGroup(int formIndex, Map<String, String> values) {

  /** Selects the form the tokens of {@code group} (e.g. "-rate") match; throws if none. */
  public static OptionGroup select(String group, List<String> tokens, OptionForm... forms) {
    List<OptionForm.Problem> problems = new ArrayList<>();
    for (int i = 0; i < forms.length; i++) {
      Map<String, String> values = forms[i].match(tokens, problems);
      if (values != null) {
        return new OptionGroup(i, values);
      }
    }
    throw new ArgumentException("Invalid " + group + " options " + tokens + ": "
        + mostRelevant(problems) + "\n" + usage(group, forms));
  }

  /** Every accepted form of the group, one per line, with each option's description. */
  public static String usage(String group, OptionForm... forms) {
    StringBuilder b = new StringBuilder("Accepted forms:");
    for (int i = 0; i < forms.length; i++) {
      b.append(i == 0 ? "\n  " : "\n OR\n  ").append(forms[i].usage(group));
    }
    List<String> seen = new ArrayList<>();
    for (OptionForm form : forms) {
      for (OptionSpec o : form.options()) {
        String line = String.format("    %-22s %s", o.prefix() + o.placeholder(), o.description());
        if (!seen.contains(line)) {
          seen.add(line);
        }
      }
    }
    for (String line : seen) {
      b.append('\n').append(line);
    }
    return b.toString();
  }

  /** Whether a flag was given. */
  public boolean has(String prefix) {
    return values.containsKey(prefix);
  }

  /** The value of an option, or null when absent without a default. */
  public String get(String prefix) {
    return values.get(prefix);
  }

  private static String mostRelevant(List<OptionForm.Problem> problems) {
    // The form that accepted the most tokens is the one the user meant; its complaint is the
    // one worth showing ("unknown option 'n=10'" from another form would mislead).
    OptionForm.Problem best = null;
    for (OptionForm.Problem p : problems) {
      if (best == null || p.consumed() > best.consumed()) {
        best = p;
      }
    }
    return best == null ? "not accepted" : best.message();
  }
}
