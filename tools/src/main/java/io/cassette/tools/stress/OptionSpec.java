package io.cassette.tools.stress;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One option of a cassandra-stress option group, such as {@code threads=N}, {@code no-warmup}
 * or {@code ratio(...)}: a case-insensitive prefix, the pattern its value must match (none for
 * a flag), a default, whether it is required, and a one-line description for the usage text.
 *
 * @param prefix the text that introduces the option, e.g. {@code "n="}, {@code "threads>="},
 *     {@code "ratio("} or {@code "no-warmup"} (a flag)
 * @param valuePattern what must follow the prefix; null for a flag
 * @param defaultValue the value when the option is absent; null for none
 * @param required whether the form is rejected without it
 * @param placeholder how the value is shown in the usage, e.g. {@code "N"} or {@code "DIST(?)"}
 * @param description what the option does
 */
public record OptionSpec(String prefix, Pattern valuePattern, String defaultValue, boolean required,
    String placeholder, String description) {

  /** An option {@code prefix=value} whose value must match {@code regex} entirely. */
  public static OptionSpec value(String prefix, String regex, String defaultValue, boolean required,
      String placeholder, String description) {
    return new OptionSpec(prefix, Pattern.compile(regex, Pattern.CASE_INSENSITIVE), defaultValue,
        required, placeholder, description);
  }

  /** A flag such as {@code no-warmup}: present or absent, no value. */
  public static OptionSpec flag(String name, String description) {
    return new OptionSpec(name, null, null, false, "", description);
  }

  boolean isFlag() {
    return valuePattern == null;
  }

  /** Whether {@code token} is this option (by prefix, or the whole name for a flag). */
  boolean accepts(String token) {
    String lower = token.toLowerCase(Locale.ROOT);
    String p = prefix.toLowerCase(Locale.ROOT);
    return isFlag() ? lower.equals(p) : lower.startsWith(p);
  }

  /** How the option appears in the usage line: {@code n=N}, {@code [cl=?]}, {@code [no-warmup]}. */
  String usage() {
    String text = isFlag() ? prefix : prefix + placeholder;
    return required ? text : "[" + text + "]";
  }
}
