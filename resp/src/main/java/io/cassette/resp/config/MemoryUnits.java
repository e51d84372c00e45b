package io.cassette.resp.config;

/** Redis's memory sizes in configuration: 1k = 1000, 1kb = 1024, 1m, 1mb, 1g, 1gb. */
final class MemoryUnits {
  private MemoryUnits() {}

  /** The size in bytes, or -1 when {@code text} is not a size (Redis's memtoull). */
  static long parse(String text) {
    String t = text.toLowerCase();
    long mul = 1;
    String[][] units = {{"kb", "1024"}, {"mb", "1048576"}, {"gb", "1073741824"},
        {"k", "1000"}, {"m", "1000000"}, {"g", "1000000000"}, {"b", "1"}};
    for (String[] u : units) {
      if (t.endsWith(u[0])) {
        mul = Long.parseLong(u[1]);
        t = t.substring(0, t.length() - u[0].length());
        break;
      }
    }
    if (t.isEmpty() || t.length() > 19) {
      return -1;
    }
    for (int i = 0; i < t.length(); i++) {
      if (t.charAt(i) < '0' || t.charAt(i) > '9') {
        return -1;
      }
    }
    long v = Long.parseLong(t);
    return v > Long.MAX_VALUE / mul ? -1 : v * mul;
  }
}
