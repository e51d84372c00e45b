package io.cassette.metrics;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format 0.0.4, written from the format's rules, for tests
 * (no pure-Java parser exists on Maven Central: the Java clients only write the format). Throws
 * on anything Prometheus would reject: malformed lines, bad names or escapes, a TYPE after the
 * family's samples or twice, a family split in two, a summary sample with a wrong suffix or no
 * valid quantile, the same series twice, a value that is not a float.
 */
final class PrometheusTextParser {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Set<String> TYPES = Set.of("counter", "gauge", "summary", "histogram", "untyped");

  /** Series key ({@code name{a="b",c="d"}}, labels sorted) to value. */
  static Map<String, Double> parse(String text) {
    Map<String, Double> series = new LinkedHashMap<>();
    Map<String, String> types = new HashMap<>();
    Set<String> helps = new HashSet<>();
    Set<String> finished = new HashSet<>();
    String currentFamily = null;
    String[] lines = text.split("\n", -1);
    if (!text.isEmpty() && !text.endsWith("\n")) {
      throw new IllegalArgumentException("the last line does not end with a newline");
    }
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int no = i + 1;
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("#")) {
        String[] parts = line.split(" ", 4);
        if (parts.length >= 3 && (parts[1].equals("HELP") || parts[1].equals("TYPE"))) {
          String name = parts[2];
          require(NAME.matcher(name).matches(), no, "bad metric name in " + parts[1] + ": " + name);
          if (parts[1].equals("HELP")) {
            require(helps.add(name), no, "second HELP for " + name);
            checkEscapes(parts.length == 4 ? parts[3] : "", false, no);
          } else {
            require(parts.length == 4 && TYPES.contains(parts[3]), no, "bad TYPE line: " + line);
            require(!types.containsKey(name), no, "second TYPE for " + name);
            require(!series.keySet().stream().anyMatch(k -> familyOf(k, types).equals(name)), no,
                "TYPE for " + name + " after its samples");
            types.put(name, parts[3]);
          }
          if (currentFamily != null && !currentFamily.equals(name)) {
            finished.add(currentFamily);
          }
          require(!finished.contains(name), no, "family " + name + " split in two");
          currentFamily = name;
        }
        continue;
      }
      int p = 0;
      while (p < line.length() && line.charAt(p) != '{' && line.charAt(p) != ' ') {
        p++;
      }
      String name = line.substring(0, p);
      require(NAME.matcher(name).matches(), no, "bad metric name: '" + name + "'");
      Map<String, String> labels = new TreeMap<>();
      if (p < line.length() && line.charAt(p) == '{') {
        p++;
        while (line.charAt(p) != '}') {
          int eq = line.indexOf('=', p);
          require(eq > 0, no, "label without '='");
          String label = line.substring(p, eq);
          require(LABEL.matcher(label).matches(), no, "bad label name: '" + label + "'");
          require(line.charAt(eq + 1) == '"', no, "label value not quoted");
          StringBuilder v = new StringBuilder();
          int q = eq + 2;
          while (true) {
            require(q < line.length(), no, "unterminated label value");
            char c = line.charAt(q);
            if (c == '\\') {
              char e = line.charAt(q + 1);
              require(e == '\\' || e == '"' || e == 'n', no, "bad escape \\" + e);
              v.append(e == 'n' ? '\n' : e);
              q += 2;
            } else if (c == '"') {
              break;
            } else {
              v.append(c);
              q++;
            }
          }
          require(labels.put(label, v.toString()) == null, no, "label " + label + " twice");
          p = q + 1;
          if (line.charAt(p) == ',') {
            p++;
          } else {
            require(line.charAt(p) == '}', no, "expected ',' or '}' at column " + p);
          }
        }
        p++;
      }
      require(p < line.length() && line.charAt(p) == ' ', no, "expected a space before the value");
      String[] rest = line.substring(p + 1).split(" ");
      require(rest.length == 1 || rest.length == 2, no, "expected value [timestamp]: " + line);
      double value = parseFloat(rest[0], no);
      String family = familyOf(name, types);
      if (currentFamily != null && !currentFamily.equals(family)) {
        finished.add(currentFamily);
      }
      require(!finished.contains(family), no, "family " + family + " split in two");
      currentFamily = family;
      if ("summary".equals(types.get(family)) && name.equals(family)) {
        require(labels.containsKey("quantile"), no, "summary sample without quantile");
        double quantile = parseFloat(labels.get("quantile"), no);
        require(quantile >= 0 && quantile <= 1, no, "quantile out of [0,1]");
      }
      if ("counter".equals(types.get(family))) {
        require(Double.isNaN(value) || value >= 0, no, "negative counter");
      }
      String key = name + labels;
      require(series.put(key, value) == null, no, "series twice: " + key);
    }
    return series;
  }

  private static String familyOf(String sampleName, Map<String, String> types) {
    for (String suffix : new String[] {"_sum", "_count", "_bucket"}) {
      if (sampleName.endsWith(suffix)) {
        String base = sampleName.substring(0, sampleName.length() - suffix.length());
        String t = types.get(base);
        if ("summary".equals(t) || "histogram".equals(t)) {
          return base;
        }
      }
    }
    return sampleName;
  }

  private static double parseFloat(String s, int no) {
    switch (s) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
      case "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        require(s.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"), no, "not a float: '" + s + "'");
        return Double.parseDouble(s);
    }
  }

  private static void checkEscapes(String help, boolean quotes, int no) {
    for (int i = 0; i < help.length(); i++) {
      if (help.charAt(i) == '\\') {
        require(i + 1 < help.length(), no, "dangling backslash");
        char e = help.charAt(i + 1);
        require(e == '\\' || e == 'n' || (quotes && e == '"'), no, "bad escape in HELP: \\" + e);
        i++;
      }
    }
  }

  private static void require(boolean ok, int line, String what) {
    if (!ok) {
      throw new IllegalArgumentException("line " + line + ": " + what);
    }
  }

  private PrometheusTextParser() {}
}
