package io.cassette.tools.stress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A distribution of longs in cassandra-stress's notation: {@code FIXED(val)},
 * {@code UNIFORM(min..max)}, {@code GAUSSIAN(min..max[,stdvrng])},
 * {@code GAUSSIAN(min..max,mean,stdev)}, {@code EXP(min..max)}, {@code EXTREME(min..max,shape)},
 * each optionally preceded by {@code ~} to invert it; numbers may end in k, m or b
 * (thousand, million, billion). Samples are clamped to [min, max].
 *
 * <p>Immutable and thread-safe; callers pass their own random source.
 */
public abstract class Distribution {
  private static final Pattern FULL = Pattern.compile("(~?)([A-Z]+)\\((.+)\\)", Pattern.CASE_INSENSITIVE);

  /** The accepted notation, for error messages. */
  public static final String FORMS = "FIXED(val) | UNIFORM(min..max) | GAUSSIAN(min..max[,stdvrng])"
      + " | GAUSSIAN(min..max,mean,stdev) | EXP(min..max) | EXTREME(min..max,shape), optionally ~-inverted";

  private final String spec;
  final long min;
  final long max;

  Distribution(String spec, long min, long max) {
    this.spec = spec;
    this.min = min;
    this.max = max;
  }

  /** The next value. */
  public abstract long next(SplittableRandom random);

  public long min() {
    return min;
  }

  public long max() {
    return max;
  }

  @Override
  public String toString() {
    return spec;
  }

  /** A distribution that always returns {@code value}. */
  public static Distribution fixed(long value) {
    return new Fixed("FIXED(" + value + ")", value);
  }

  /** Parses the notation above; throws {@link ArgumentException} naming the spec otherwise. */
  public static Distribution parse(String spec) {
    Matcher m = FULL.matcher(spec.trim());
    if (!m.matches()) {
      throw new ArgumentException("Illegal distribution specification: '" + spec + "'; expected " + FORMS);
    }
    boolean inverse = m.group(1).equals("~");
    String name = m.group(2).toLowerCase(Locale.ROOT);
    List<String> params = new ArrayList<>(List.of(m.group(3).split(",")));
    Distribution d;
    try {
      d = switch (name) {
        case "fixed" -> {
          expect(params, 1, spec);
          yield new Fixed(spec, parseLong(params.get(0)));
        }
        case "uniform" -> {
          expect(params, 1, spec);
          long[] b = bounds(params.get(0));
          yield new Uniform(spec, b[0], b[1]);
        }
        case "gaussian", "gauss", "normal", "norm" -> {
          if (params.isEmpty() || params.size() > 3) {
            throw new ArgumentException("Invalid parameter list for gaussian distribution: " + spec);
          }
          long[] b = bounds(params.get(0));
          double mean;
          double stdev;
          if (params.size() == 3) {
            mean = Double.parseDouble(params.get(1));
            stdev = Double.parseDouble(params.get(2));
          } else {
            double stdevsToEdge = params.size() == 1 ? 3d : Double.parseDouble(params.get(1));
            mean = (b[0] + b[1]) / 2d;
            stdev = ((b[1] - b[0]) / 2d) / stdevsToEdge;
          }
          yield new Gaussian(spec, b[0], b[1], mean, stdev);
        }
        case "exp" -> {
          expect(params, 1, spec);
          long[] b = bounds(params.get(0));
          // As cassandra-stress: the mean makes the far end of the range reachable but rare.
          double mean = (b[1] - b[0]) / -Math.log(Math.sqrt(1d / Math.max(1, b[1] - b[0])));
          yield new Inverse(spec, b[0], b[1], u -> -mean * Math.log(1 - u));
        }
        case "extreme", "extr", "weibull" -> {
          expect(params, 2, spec);
          long[] b = bounds(params.get(0));
          double shape = Double.parseDouble(params.get(1));
          double edge = Math.pow(-Math.log(Math.sqrt(1d / Math.max(1, b[1] - b[0]))), 1 / shape);
          double scale = (b[1] - b[0]) / edge;
          yield new Inverse(spec, b[0], b[1], u -> scale * Math.pow(-Math.log(1 - u), 1 / shape));
        }
        default -> throw new ArgumentException("Illegal distribution type '" + m.group(2) + "' in '"
            + spec + "'; expected " + FORMS);
      };
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw new ArgumentException("Invalid parameters in distribution '" + spec + "'; expected " + FORMS);
    }
    if (d.min > d.max) {
      throw new ArgumentException("Invalid range in distribution '" + spec + "': min > max");
    }
    return inverse ? new Inverted("~" + d.spec, d) : d;
  }

  /** Parses a count with an optional k/m/b suffix (thousand, million, billion), as stress does. */
  public static long parseLong(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    long multiplier = 1;
    switch (v.charAt(v.length() - 1)) {
      case 'b' -> multiplier = 1_000_000_000L;
      case 'm' -> multiplier = 1_000_000L;
      case 'k' -> multiplier = 1_000L;
      default -> { }
    }
    if (multiplier != 1) {
      v = v.substring(0, v.length() - 1);
    }
    return Long.parseLong(v) * multiplier;
  }

  private static long[] bounds(String range) {
    String[] parts = range.split("\\.\\.+");
    if (parts.length != 2) {
      throw new NumberFormatException(range);
    }
    return new long[] {parseLong(parts[0]), parseLong(parts[1])};
  }

  private static void expect(List<String> params, int count, String spec) {
    if (params.size() != count) {
      throw new ArgumentException("Invalid parameter list for distribution '" + spec + "'; expected " + FORMS);
    }
  }

  long clamp(double v) {
    long r = Math.round(v);
    return r < min ? min : Math.min(r, max);
  }

  private static final class Fixed extends Distribution {
    Fixed(String spec, long value) {
      super(spec, value, value);
    }

    @Override
    public long next(SplittableRandom random) {
      return min;
    }
  }

  private static final class Uniform extends Distribution {
    Uniform(String spec, long min, long max) {
      super(spec, min, max);
    }

    @Override
    public long next(SplittableRandom random) {
      return min == max ? min : random.nextLong(min, max + 1);
    }
  }

  private static final class Gaussian extends Distribution {
    private final double mean;
    private final double stdev;

    Gaussian(String spec, long min, long max, double mean, double stdev) {
      super(spec, min, max);
      this.mean = mean;
      this.stdev = stdev;
    }

    @Override
    public long next(SplittableRandom random) {
      // Box-Muller; SplittableRandom has no nextGaussian.
      double u1 = 1 - random.nextDouble();
      double u2 = random.nextDouble();
      double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      return clamp(mean + z * stdev);
    }
  }

  /** A distribution sampled through its inverse cumulative function, offset by min. */
  private static final class Inverse extends Distribution {
    private final java.util.function.DoubleUnaryOperator inverseCdf;

    Inverse(String spec, long min, long max, java.util.function.DoubleUnaryOperator inverseCdf) {
      super(spec, min, max);
      this.inverseCdf = inverseCdf;
    }

    @Override
    public long next(SplittableRandom random) {
      return clamp(min + inverseCdf.applyAsDouble(random.nextDouble()));
    }
  }

  private static final class Inverted extends Distribution {
    private final Distribution wrapped;

    Inverted(String spec, Distribution wrapped) {
      super(spec, wrapped.min, wrapped.max);
      this.wrapped = wrapped;
    }

    @Override
    public long next(SplittableRandom random) {
      return max - (wrapped.next(random) - min);
    }
  }
}
