package io.cassette.tools.cqlsh;

import java.util.List;

/**
 * Rows as cqlsh prints them. Tabular: names left-aligned, values right-aligned, columns joined
 * by {@code " | "}, a {@code -+-} rule under the header. Expanded ({@code EXPAND ON}): one
 * {@code @ Row n} block per row with name and value side by side. Widths count code points,
 * which is what a terminal shows for most text. Stateless.
 */
final class ResultPrinter {
  private ResultPrinter() {}

  /** One page of rows in a table; {@code cells} are already formatted. */
  static String table(List<String> names, List<List<String>> cells) {
    int[] widths = new int[names.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = width(names.get(i));
    }
    for (List<String> row : cells) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], width(row.get(i)));
      }
    }
    StringBuilder out = new StringBuilder();
    StringBuilder header = new StringBuilder(" ");
    StringBuilder rule = new StringBuilder("-");
    for (int i = 0; i < widths.length; i++) {
      if (i > 0) {
        header.append(" | ");
        rule.append("-+-");
      }
      header.append(names.get(i)).append(" ".repeat(widths[i] - width(names.get(i))));
      rule.append("-".repeat(widths[i]));
    }
    rule.append('-');
    out.append(header.toString().stripTrailing()).append('\n').append(rule).append('\n');
    for (List<String> row : cells) {
      out.append(' ');
      for (int i = 0; i < widths.length; i++) {
        if (i > 0) {
          out.append(" | ");
        }
        out.append(" ".repeat(widths[i] - width(row.get(i)))).append(row.get(i));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** One page of rows, expanded; {@code firstRowNumber} continues the count across pages. */
  static String expanded(List<String> names, List<List<String>> cells, int firstRowNumber) {
    int nameWidth = 0;
    int valueWidth = 0;
    for (String n : names) {
      nameWidth = Math.max(nameWidth, width(n));
    }
    for (List<String> row : cells) {
      for (String v : row) {
        valueWidth = Math.max(valueWidth, width(v));
      }
    }
    StringBuilder out = new StringBuilder();
    int number = firstRowNumber;
    for (List<String> row : cells) {
      out.append("@ Row ").append(number++).append('\n');
      out.append('-').append("-".repeat(nameWidth)).append("-+-").append("-".repeat(valueWidth))
          .append("-\n");
      for (int i = 0; i < names.size(); i++) {
        out.append(' ').append(names.get(i)).append(" ".repeat(nameWidth - width(names.get(i))))
            .append(" | ").append(row.get(i)).append('\n');
      }
      out.append('\n');
    }
    return out.toString();
  }

  static int width(String s) {
    return s.codePointCount(0, s.length());
  }
}
