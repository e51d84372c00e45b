package io.cassette.storage.compaction;

import io.cassette.storage.StorageException;
import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The levels of Cassandra 5.0's unified compaction strategy (UCS), without its sharding:
 * every SSTable covers the whole token range here, so its density is its size. With fan factor
 * f and the table's recent flush size m, level 0 holds SSTables under
 * {@code b·f} where {@code b = max(1 MiB, m)·(1 − 0.9/f)} (UCS's leeway for flushes that
 * come out a little small), level i those in {@code [b·f^i, b·f^(i+1))}; a level with t
 * SSTables is compacted whole (at most max_sstables_to_compact, smallest first), the lowest
 * such level first. {@code scaling_parameters} sets f and t per level as UCS does: T4 (w = 2,
 * the default: tiered, f = t = 4, STCS's threshold), L10 (w = -8: levelled, f = 10, t = 2),
 * N (w = 0: f = t = 2), or w itself; a list gives one per level, the last for the rest.
 * {@code flush_size_override} fixes m. Sharding options (base_shard_count,
 * target_sstable_size, sstable_growth, min_sstable_size) are accepted and have no effect.
 */
public final class UnifiedStrategy implements CompactionStrategy {
  static final int DEFAULT_MAX_SSTABLES_TO_COMPACT = 32;
  private static final long MIN_FLUSH_BYTES = 1L << 20;
  private static final int MAX_LEVELS = 32;

  /** w per level; the last applies to every higher level. */
  private final int[] scaling;
  private final long flushSizeOverride;
  private final int maxSSTablesToCompact;

  public UnifiedStrategy(int[] scaling, long flushSizeOverride, int maxSSTablesToCompact) {
    if (scaling.length == 0) {
      throw new IllegalArgumentException("no scaling parameter");
    }
    this.scaling = scaling.clone();
    this.flushSizeOverride = flushSizeOverride;
    this.maxSSTablesToCompact = maxSSTablesToCompact;
  }

  static UnifiedStrategy fromOptions(Map<String, String> o) {
    String[] parts = o.getOrDefault("scaling_parameters", "T4").split(",");
    int[] w = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      w[i] = parseScalingParameter(parts[i].trim());
    }
    long override = o.containsKey("flush_size_override") ? parseSize(o.get("flush_size_override")) : 0;
    int max;
    try {
      max = Integer.parseInt(o.getOrDefault("max_sstables_to_compact", "" + DEFAULT_MAX_SSTABLES_TO_COMPACT));
    } catch (NumberFormatException e) {
      throw new StorageException("max_sstables_to_compact: " + o.get("max_sstables_to_compact") + " (expected: an integer)");
    }
    // Cassandra's 0 means no limit; merging every input at once costs a read buffer each.
    return new UnifiedStrategy(w, override, max <= 0 ? DEFAULT_MAX_SSTABLES_TO_COMPACT : Math.max(2, max));
  }

  /** T4, L10, N, or an integer w, as UCS's scaling_parameters spells them. */
  static int parseScalingParameter(String s) {
    String u = s.toUpperCase(Locale.ROOT);
    try {
      if (u.equals("N")) {
        return 0;
      }
      if (u.startsWith("T") && u.length() > 1) {
        int f = Integer.parseInt(u.substring(1));
        if (f >= 2) {
          return f - 2;
        }
      } else if (u.startsWith("L") && u.length() > 1) {
        int f = Integer.parseInt(u.substring(1));
        if (f >= 2) {
          return 2 - f;
        }
      } else {
        return Integer.parseInt(u);
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new StorageException("scaling_parameters: '" + s + "' (expected: Tf, Lf or N with f >= 2, or an integer)");
  }

  /** A size in bytes, with an optional B, KiB, MiB or GiB unit. */
  static long parseSize(String s) {
    String t = s.trim();
    long unit = 1;
    String[] units = {"GIB", "MIB", "KIB", "B"}; // in this order: every unit ends with B
    for (int i = 0; i < units.length; i++) {
      if (t.toUpperCase(Locale.ROOT).endsWith(units[i])) {
        unit = 1L << (10 * (units.length - 1 - i));
        t = t.substring(0, t.length() - units[i].length()).trim();
        break;
      }
    }
    try {
      long v = Long.parseLong(t) * unit;
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new StorageException("flush_size_override: '" + s + "' (expected: a positive size such as 64MiB)");
  }

  private int w(int level) {
    return scaling[Math.min(level, scaling.length - 1)];
  }

  int fanout(int level) {
    return 2 + Math.abs(w(level));
  }

  int threshold(int level) {
    return w(level) > 0 ? fanout(level) : 2;
  }

  /** SSTables grouped by level (index = level; empty levels included up to the highest). */
  List<List<SSTableReader>> levels(List<SSTableReader> sstables, long flushBytes) {
    long m = flushSizeOverride > 0 ? flushSizeOverride : Math.max(MIN_FLUSH_BYTES, flushBytes);
    double max = m * (1.0 - 0.9 / fanout(0)) * fanout(0);
    List<SSTableReader> sorted = new ArrayList<>(sstables);
    sorted.sort(Comparator.comparingLong(SSTableReader::bytesOnDisk));
    List<List<SSTableReader>> levels = new ArrayList<>();
    levels.add(new ArrayList<>());
    for (SSTableReader s : sorted) {
      while (s.bytesOnDisk() >= max && levels.size() < MAX_LEVELS) {
        max *= fanout(levels.size());
        levels.add(new ArrayList<>());
      }
      levels.get(levels.size() - 1).add(s);
    }
    return levels;
  }

  @Override
  public List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    return TieredGroups.firstFull(levels(candidates, flushBytes), this::threshold, maxSSTablesToCompact);
  }

  @Override
  public int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    return TieredGroups.pendingTasks(levels(candidates, flushBytes), this::threshold, maxSSTablesToCompact);
  }
}
