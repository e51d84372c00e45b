package io.cassette.tools.nodetool;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** Byte counts as Cassandra's nodetool prints them ("109.41 KiB", "0 bytes"). */
final class Sizes {
  private static final double KIB = 1024;
  private static final double MIB = KIB * 1024;
  private static final double GIB = MIB * 1024;
  private static final double TIB = GIB * 1024;

  private Sizes() {}

  static String human(double bytes) {
    DecimalFormat df = new DecimalFormat("#.##", DecimalFormatSymbols.getInstance(Locale.ROOT));
    if (bytes >= TIB) {
      return df.format(bytes / TIB) + " TiB";
    } else if (bytes >= GIB) {
      return df.format(bytes / GIB) + " GiB";
    } else if (bytes >= MIB) {
      return df.format(bytes / MIB) + " MiB";
    } else if (bytes >= KIB) {
      return df.format(bytes / KIB) + " KiB";
    }
    return df.format(bytes) + " bytes";
  }

  /** A byte count as a plain number, or human-readable with {@code -H}. */
  static String bytes(long bytes, boolean human) {
    return human ? human(bytes) : Long.toString(bytes);
  }
}
