package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.protocol.LongDouble;
import io.cassette.resp.protocol.Reply;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Geo commands on sorted sets (Redis 7.0's src/geo.c): GEOADD is ZADD with each point's 52-bit
 * {@link GeoHash} as score; GEORADIUS, GEORADIUSBYMEMBER (and _RO), GEOSEARCH and
 * GEOSEARCHSTORE scan the score ranges of the centre box and its neighbours, in Redis's order,
 * then keep members inside the shape; GEOHASH, GEOPOS, GEODIST decode scores. Replies and
 * error texts are Redis's (distances with four decimals, coordinates as "%.17Lf" trimmed).
 */
final class GeoCommands {
  private GeoCommands() {}

  static void register(CommandTable t) {
    t.add("geoadd", -5, WRITE | DENY_OOM, 1, 1, 1, GeoCommands::geoadd);
    t.add("geodist", -4, READONLY, 1, 1, 1, GeoCommands::geodist);
    t.add("geohash", -2, READONLY, 1, 1, 1, c -> positions(c, true));
    t.add("geopos", -2, READONLY, 1, 1, 1, c -> positions(c, false));
    t.add("georadius", -6, WRITE | DENY_OOM, 1, 1, 1, c -> search(c, 1, COORDS));
    t.add("georadius_ro", -6, READONLY, 1, 1, 1, c -> search(c, 1, COORDS | NOSTORE));
    t.add("georadiusbymember", -5, WRITE | DENY_OOM, 1, 1, 1, c -> search(c, 1, MEMBER));
    t.add("georadiusbymember_ro", -5, READONLY, 1, 1, 1, c -> search(c, 1, MEMBER | NOSTORE));
    t.add("geosearch", -7, READONLY, 1, 1, 1, c -> search(c, 1, SEARCH));
    t.add("geosearchstore", -8, WRITE | DENY_OOM, 1, 2, 1, c -> search(c, 2, SEARCH | SEARCHSTORE));
  }

  private static final int COORDS = 1;
  private static final int MEMBER = 2;
  private static final int NOSTORE = 4;
  private static final int SEARCH = 8;
  private static final int SEARCHSTORE = 16;

  /** {longitude, latitude} from two arguments, or Redis's error. */
  private static double[] lonLat(CommandContext c, int at) {
    double lon = Args.parseDouble(c.arg(at));
    double lat = Args.parseDouble(c.arg(at + 1));
    if (lon < GeoHash.LONG_MIN || lon > GeoHash.LONG_MAX || lat < GeoHash.LAT_MIN
        || lat > GeoHash.LAT_MAX) {
      throw new RedisException(String.format(Locale.ROOT,
          "ERR invalid longitude,latitude pair %f,%f", lon, lat));
    }
    return new double[] {lon, lat};
  }

  private static double unit(byte[] u) {
    if (Args.is(u, "m")) {
      return 1;
    } else if (Args.is(u, "km")) {
      return 1000;
    } else if (Args.is(u, "ft")) {
      return 0.3048;
    } else if (Args.is(u, "mi")) {
      return 1609.34;
    }
    throw new RedisException("ERR unsupported unit provided. please use M, KM, FT, MI");
  }

  private static double number(byte[] arg, String error) {
    Double d = Args.parseDoubleOrNull(arg);
    if (d == null) {
      throw new RedisException("ERR " + error);
    }
    return d;
  }

  private static void geoadd(CommandContext c) {
    int longIdx = 2;
    boolean nx = false;
    boolean xx = false;
    while (longIdx < c.argc()) {
      byte[] o = c.arg(longIdx);
      if (Args.is(o, "nx")) {
        nx = true;
      } else if (Args.is(o, "xx")) {
        xx = true;
      } else if (!Args.is(o, "ch")) {
        break;
      }
      longIdx++;
    }
    if ((c.argc() - longIdx) % 3 != 0 || (xx && nx)) {
      throw new RedisException(Errors.SYNTAX);
    }
    int elements = (c.argc() - longIdx) / 3;
    byte[][] zadd = new byte[longIdx + elements * 2][];
    zadd[0] = Args.bytes("zadd");
    System.arraycopy(c.args, 1, zadd, 1, longIdx - 1);
    for (int i = 0; i < elements; i++) {
      double[] xy = lonLat(c, longIdx + i * 3);
      zadd[longIdx + i * 2] = Args.bytes(Long.toString(GeoHash.score(xy[0], xy[1])));
      zadd[longIdx + i * 2 + 1] = c.arg(longIdx + i * 3 + 2);
    }
    SortedSetCommands.zadd(new CommandContext(c.server, c.session, zadd, c.spec, c.mayBlock));
  }

  private static void geodist(CommandContext c) {
    double toMeter = 1;
    if (c.argc() == 5) {
      toMeter = unit(c.arg(4));
    } else if (c.argc() > 5) {
      throw new RedisException(Errors.SYNTAX);
    }
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
    Double s1 = m == null ? null : SortedSetCommands.score(c.db(), m, c.arg(2));
    Double s2 = m == null ? null : SortedSetCommands.score(c.db(), m, c.arg(3));
    if (s1 == null || s2 == null) {
      c.reply().nullBulk();
      return;
    }
    double[] a = GeoHash.decodeScore(s1);
    double[] b = GeoHash.decodeScore(s2);
    c.reply().bulk(GeoHash.distanceText(GeoHash.distance(a[0], a[1], b[0], b[1]) / toMeter));
  }

  private static void positions(CommandContext c, boolean hashes) {
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
    Reply r = c.reply();
    r.array(c.argc() - 2);
    for (int i = 2; i < c.argc(); i++) {
      Double s = m == null ? null : SortedSetCommands.score(c.db(), m, c.arg(i));
      if (s == null) {
        if (hashes) {
          r.nullBulk();
        } else {
          r.nullArray();
        }
      } else if (hashes) {
        r.bulk(GeoHash.geohashString(s));
      } else {
        double[] xy = GeoHash.decodeScore(s);
        r.array(2);
        r.doubleText(human(xy[0]));
        r.doubleText(human(xy[1]));
      }
    }
  }

  /** Redis's addReplyHumanLongDouble text of a double. */
  private static String human(double d) {
    return LongDouble.format(new BigDecimal(d));
  }

  /** A member found by a search. */
  private record Point(byte[] member, double score, double lon, double lat, double dist) {}

  private static double[] memberPosition(CommandContext c, KeyMeta m, byte[] member) {
    Double s = SortedSetCommands.score(c.db(), m, member);
    if (s == null) {
      throw new RedisException("ERR could not decode requested zset member");
    }
    return GeoHash.decodeScore(s);
  }

  private static void distance(CommandContext c, GeoHash.Shape shape, int at) {
    double r = number(c.arg(at), "need numeric radius");
    if (r < 0) {
      throw new RedisException("ERR radius cannot be negative");
    }
    shape.radius = r;
    shape.conversion = unit(c.arg(at + 1));
  }

  /** georadiusGeneric: every GEORADIUS* and GEOSEARCH* form. */
  private static void search(CommandContext c, int srcKeyIndex, int flags) {
    KeyMeta zobj = Keys.read(c, c.arg(srcKeyIndex), KeyType.ZSET);
    byte[] storeKey = null;
    boolean storeDist = false;
    GeoHash.Shape shape = new GeoHash.Shape();
    int baseArgs;
    if ((flags & COORDS) != 0) {
      baseArgs = 6;
      double[] xy = lonLat(c, 2);
      shape.lon = xy[0];
      shape.lat = xy[1];
      distance(c, shape, 4);
    } else if ((flags & MEMBER) != 0) {
      baseArgs = 5;
      if (zobj != null) {
        double[] xy = memberPosition(c, zobj, c.arg(2));
        shape.lon = xy[0];
        shape.lat = xy[1];
        distance(c, shape, 3);
      }
    } else {
      baseArgs = 2;
      if ((flags & SEARCHSTORE) != 0) {
        baseArgs = 3;
        storeKey = c.arg(1);
      }
    }
    boolean withDist = false;
    boolean withHash = false;
    boolean withCoords = false;
    boolean fromMember = false;
    boolean fromLoc = false;
    boolean byRadius = false;
    boolean byBox = false;
    int sort = 0; // 0 none, 1 asc, 2 desc
    boolean any = false;
    long count = 0;
    boolean search = (flags & SEARCH) != 0;
    int remaining = c.argc() - baseArgs;
    for (int i = 0; i < remaining; i++) {
      byte[] a = c.arg(baseArgs + i);
      if (Args.is(a, "withdist")) {
        withDist = true;
      } else if (Args.is(a, "withhash")) {
        withHash = true;
      } else if (Args.is(a, "withcoord")) {
        withCoords = true;
      } else if (Args.is(a, "any")) {
        any = true;
      } else if (Args.is(a, "asc")) {
        sort = 1;
      } else if (Args.is(a, "desc")) {
        sort = 2;
      } else if (Args.is(a, "count") && i + 1 < remaining) {
        count = Args.parseLong(c.arg(baseArgs + i + 1));
        if (count <= 0) {
          throw new RedisException("ERR COUNT must be > 0");
        }
        i++;
      } else if ((Args.is(a, "store") || Args.is(a, "storedist")) && i + 1 < remaining
          && (flags & NOSTORE) == 0 && !search) {
        storeKey = c.arg(baseArgs + i + 1);
        storeDist = Args.is(a, "storedist");
        i++;
      } else if (Args.is(a, "storedist") && search && (flags & SEARCHSTORE) != 0) {
        storeDist = true;
      } else if (Args.is(a, "frommember") && i + 1 < remaining && search && !fromLoc) {
        if (zobj != null) {
          double[] xy = memberPosition(c, zobj, c.arg(baseArgs + i + 1));
          shape.lon = xy[0];
          shape.lat = xy[1];
        }
        fromMember = true;
        i++;
      } else if (Args.is(a, "fromlonlat") && i + 2 < remaining && search && !fromMember) {
        double[] xy = lonLat(c, baseArgs + i + 1);
        shape.lon = xy[0];
        shape.lat = xy[1];
        fromLoc = true;
        i += 2;
      } else if (Args.is(a, "byradius") && i + 2 < remaining && search && !byBox) {
        distance(c, shape, baseArgs + i + 1);
        shape.box = false;
        byRadius = true;
        i += 2;
      } else if (Args.is(a, "bybox") && i + 3 < remaining && search && !byRadius) {
        double w = number(c.arg(baseArgs + i + 1), "need numeric width");
        double h = number(c.arg(baseArgs + i + 2), "need numeric height");
        if (h < 0 || w < 0) {
          throw new RedisException("ERR height or width cannot be negative");
        }
        shape.width = w;
        shape.height = h;
        shape.conversion = unit(c.arg(baseArgs + i + 3));
        shape.box = true;
        byBox = true;
        i += 3;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    if (storeKey != null && (withDist || withHash || withCoords)) {
      throw new RedisException("ERR " + ((flags & SEARCHSTORE) != 0 ? "GEOSEARCHSTORE"
          : "STORE option in GEORADIUS")
          + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
    }
    String name = c.argString(0);
    if (search && !(fromMember || fromLoc)) {
      throw new RedisException("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for "
          + name);
    }
    if (search && !(byRadius || byBox)) {
      throw new RedisException("ERR exactly one of BYRADIUS and BYBOX can be specified for "
          + name);
    }
    if (any && count == 0) {
      throw new RedisException("ERR the ANY argument requires COUNT argument");
    }
    if (zobj == null) {
      if (storeKey != null) {
        c.reply().integer(SortedSetAlgebra.storeResult(c, c.db(), storeKey, List.of()));
      } else {
        c.reply().emptyArray();
      }
      return;
    }
    if (count != 0 && sort == 0 && !any) {
      sort = 1;
    }
    Search found = new Search(c, zobj, shape, any ? count : 0);
    int order = sort;
    long most = count;
    byte[] store = storeKey;
    boolean dist = withDist;
    boolean coords = withCoords;
    boolean hash = withHash;
    boolean storedDist = storeDist;
    KeysInTurns.steps(c, () -> {
      boolean done = found.getAsBoolean();
      CollectionInTurns.check(c, found.held);
      return done;
    }, r -> answer(c, r, found.found, shape, order, most, store, dist, coords, hash, storedDist), () -> { });
  }

  /** Sorts what the search found and answers it, or stores it (GEOSEARCHSTORE, STORE, STOREDIST). */
  private static void answer(CommandContext c, Reply r, List<Point> found, GeoHash.Shape shape, int sort,
                             long count, byte[] storeKey, boolean withDist, boolean withCoords,
                             boolean withHash, boolean storeDist) {
    long returned = count == 0 || found.size() < count ? found.size() : count;
    if (sort != 0) {
      Comparator<Point> asc = Comparator.comparingDouble(Point::dist);
      found.sort(sort == 1 ? asc : asc.reversed());
    }
    if (storeKey == null) {
      int options = (withDist ? 1 : 0) + (withCoords ? 1 : 0) + (withHash ? 1 : 0);
      r.array((int) returned);
      for (int i = 0; i < returned; i++) {
        Point p = found.get(i);
        if (options > 0) {
          r.array(options + 1);
        }
        r.bulk(p.member());
        if (withDist) {
          r.bulk(GeoHash.distanceText(p.dist() / shape.conversion));
        }
        if (withHash) {
          r.integer((long) p.score());
        }
        if (withCoords) {
          r.array(2);
          r.doubleText(human(p.lon()));
          r.doubleText(human(p.lat()));
        }
      }
      return;
    }
    List<SortedSetCommands.Entry> entries = new ArrayList<>();
    for (int i = 0; i < returned; i++) {
      Point p = found.get(i);
      entries.add(new SortedSetCommands.Entry(p.member(),
          storeDist ? p.dist() / shape.conversion : p.score()));
    }
    entries.sort(SortedSetAlgebra.ORDER);
    dedupe(entries);
    SortedSetAlgebra.storeResult(c, c.db(), storeKey, entries);
    r.integer(returned);
  }

  /** A member found in two boxes is stored once. */
  private static void dedupe(List<SortedSetCommands.Entry> sorted) {
    java.util.Set<java.nio.ByteBuffer> seen = new java.util.HashSet<>();
    sorted.removeIf(e -> !seen.add(java.nio.ByteBuffer.wrap(e.member())));
  }

  /**
   * membersOfAllNeighbors: the boxes in Redis's order, each a score range of the zset, read
   * {@link CollectionInTurns#ROWS_PER_STEP} rows a step, so that a search over a huge set (a radius
   * around the globe reads all of it) runs in turns of the command thread (issue 13).
   */
  private static final class Search implements java.util.function.BooleanSupplier {
    final List<Point> found = new ArrayList<>();
    /** Heap the found points take, for {@link CollectionInTurns#check}. */
    long held;
    private final CommandContext c;
    private final KeyMeta m;
    private final GeoHash.Shape shape;
    private final long limit;
    private final GeoHash.Bits[] boxes;
    private int box = -1;
    private int last; // as Redis: a box equal to the centre box is scanned again
    private java.util.function.BooleanSupplier reading;

    Search(CommandContext c, KeyMeta m, GeoHash.Shape shape, long limit) {
      this.c = c;
      this.m = m;
      this.shape = shape;
      this.limit = limit;
      this.boxes = GeoHash.searchBoxes(shape);
    }

    @Override
    public boolean getAsBoolean() {
      while (true) {
        if (reading != null) {
          if (!reading.getAsBoolean()) {
            return false; // more of this box at the next step
          }
          reading = null;
          last = box;
        }
        box++;
        if (box >= boxes.length) {
          return true;
        }
        GeoHash.Bits b = boxes[box];
        if (b.isZero()) {
          continue;
        }
        if (last != 0 && b.equals(boxes[last])) {
          continue; // huge radii: adjacent boxes can be the same
        }
        if (!found.isEmpty() && limit > 0 && found.size() >= limit) {
          return true;
        }
        long[] range = GeoHash.scoreRange(b);
        SortedSetCommands.ScoreRange sr = new SortedSetCommands.ScoreRange(range[0], false, range[1], true);
        if (sr.empty()) {
          last = box;
          continue;
        }
        reading = CollectionInTurns.sliceRows(c.db(), m, sr.slice(), false, row -> {
          byte[] cl = row.clustering();
          double score = io.cassette.resp.keyspace.RedisLayout.scoreOf(cl);
          double[] xy = GeoHash.decodeScore(score);
          double d = GeoHash.within(shape, xy[0], xy[1]);
          if (d >= 0) {
            byte[] member = io.cassette.resp.keyspace.RedisLayout.memberOfScoreClustering(cl);
            found.add(new Point(member, score, xy[0], xy[1], d));
            held += CollectionInTurns.held(member) + 64;
          }
          return limit <= 0 || found.size() < limit;
        });
      }
    }
  }

}
