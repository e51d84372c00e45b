package io.cassette.resp.command;

/**
 * Redis's geohash maths (src/geohash.c, geohash_helper.c of Redis 7.0), written anew: a point
 * is a 52-bit interleaved hash (26 bits of latitude on even bits, 26 of longitude on odd ones)
 * over longitude [-180, 180] and latitude [-85.05112878, 85.05112878] (Web Mercator's limits),
 * stored as the sorted-set score. A search covers the point's box at a step chosen from the
 * radius plus its eight neighbours, each a score range; members are then filtered by the exact
 * haversine distance on Redis's earth radius. The same numbers give the same hashes, boxes and
 * distances as Redis. Pure functions; thread-safe.
 */
final class GeoHash {
  static final double LONG_MIN = -180;
  static final double LONG_MAX = 180;
  static final double LAT_MIN = -85.05112878;
  static final double LAT_MAX = 85.05112878;
  /** Bits per coordinate of a stored hash: 26 (52 bits in all). */
  static final int STEP_MAX = 26;
  /** Earth's quadratic mean radius for WGS-84, as Redis uses. */
  static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
  private static final double MERCATOR_MAX = 20037726.37;
  private static final double D_R = Math.PI / 180.0;

  private GeoHash() {}

  /** A hash of {@code step} bits per coordinate; bits 0 and step 0 is "no box". */
  record Bits(long bits, int step) {
    boolean isZero() {
      return bits == 0 && step == 0;
    }
  }

  /** A box: longitude and latitude ranges. */
  record Area(double lonMin, double lonMax, double latMin, double latMax) {}

  private static long interleave64(long xlo, long ylo) {
    final long[] b = {0x5555555555555555L, 0x3333333333333333L, 0x0F0F0F0F0F0F0F0FL,
        0x00FF00FF00FF00FFL, 0x0000FFFF0000FFFFL};
    final int[] s = {1, 2, 4, 8, 16};
    long x = xlo & 0xFFFFFFFFL;
    long y = ylo & 0xFFFFFFFFL;
    for (int i = 4; i >= 0; i--) {
      x = (x | (x << s[i])) & b[i];
      y = (y | (y << s[i])) & b[i];
    }
    return x | (y << 1);
  }

  private static long deinterleave64(long interleaved) {
    final long[] b = {0x5555555555555555L, 0x3333333333333333L, 0x0F0F0F0F0F0F0F0FL,
        0x00FF00FF00FF00FFL, 0x0000FFFF0000FFFFL, 0x00000000FFFFFFFFL};
    final int[] s = {0, 1, 2, 4, 8, 16};
    long x = interleaved;
    long y = interleaved >>> 1;
    for (int i = 0; i < 6; i++) {
      x = (x | (x >>> s[i])) & b[i];
      y = (y | (y >>> s[i])) & b[i];
    }
    return x | (y << 32);
  }

  /** Encodes a point in the given ranges; null outside them or outside Redis's limits. */
  static Bits encode(double lonMin, double lonMax, double latMin, double latMax,
                     double longitude, double latitude, int step) {
    if (longitude > LONG_MAX || longitude < LONG_MIN || latitude > LAT_MAX || latitude < LAT_MIN) {
      return null;
    }
    if (latitude < latMin || latitude > latMax || longitude < lonMin || longitude > lonMax) {
      return null;
    }
    double latOffset = (latitude - latMin) / (latMax - latMin);
    double longOffset = (longitude - lonMin) / (lonMax - lonMin);
    latOffset *= (double) (1L << step);
    longOffset *= (double) (1L << step);
    return new Bits(interleave64((long) latOffset, (long) longOffset), step);
  }

  static Bits encode(double longitude, double latitude, int step) {
    return encode(LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX, longitude, latitude, step);
  }

  /** The stored score of a point: its 26-step hash as a 52-bit integer. */
  static long score(double longitude, double latitude) {
    return align52(encode(longitude, latitude, STEP_MAX));
  }

  static long align52(Bits hash) {
    return hash.bits() << (52 - hash.step() * 2);
  }

  static Area decode(Bits hash) {
    long sep = deinterleave64(hash.bits());
    double latScale = LAT_MAX - LAT_MIN;
    double longScale = LONG_MAX - LONG_MIN;
    long ilato = sep & 0xFFFFFFFFL;
    long ilono = sep >>> 32;
    double div = (double) (1L << hash.step());
    return new Area(
        LONG_MIN + (ilono * 1.0 / div) * longScale,
        LONG_MIN + ((ilono + 1) * 1.0 / div) * longScale,
        LAT_MIN + (ilato * 1.0 / div) * latScale,
        LAT_MIN + ((ilato + 1) * 1.0 / div) * latScale);
  }

  /** The centre of a stored score's box: {longitude, latitude}, clamped to the limits. */
  static double[] decodeScore(double score) {
    Area a = decode(new Bits((long) score, STEP_MAX));
    double lon = Math.max(LONG_MIN, Math.min(LONG_MAX, (a.lonMin() + a.lonMax()) / 2));
    double lat = Math.max(LAT_MIN, Math.min(LAT_MAX, (a.latMin() + a.latMax()) / 2));
    return new double[] {lon, lat};
  }

  /** The standard 11-character geohash (latitude over [-90, 90]) of a stored score. */
  static String geohashString(double score) {
    final String alphabet = "0123456789bcdefghjkmnpqrstuvwxyz";
    double[] xy = decodeScore(score);
    Bits hash = encode(-180, 180, -90, 90, xy[0], xy[1], STEP_MAX);
    long bits = hash == null ? 0 : hash.bits();
    StringBuilder sb = new StringBuilder(11);
    for (int i = 0; i < 11; i++) {
      int idx = i == 10 ? 0 : (int) ((bits >>> (52 - ((i + 1) * 5))) & 0x1f);
      sb.append(alphabet.charAt(idx));
    }
    return sb.toString();
  }

  private static Bits moveX(Bits h, int d) {
    if (d == 0) {
      return h;
    }
    long x = h.bits() & 0xaaaaaaaaaaaaaaaaL;
    long y = h.bits() & 0x5555555555555555L;
    long zz = 0x5555555555555555L >>> (64 - h.step() * 2);
    if (d > 0) {
      x = x + (zz + 1);
    } else {
      x = x | zz;
      x = x - (zz + 1);
    }
    x &= (0xaaaaaaaaaaaaaaaaL >>> (64 - h.step() * 2));
    return new Bits(x | y, h.step());
  }

  private static Bits moveY(Bits h, int d) {
    if (d == 0) {
      return h;
    }
    long x = h.bits() & 0xaaaaaaaaaaaaaaaaL;
    long y = h.bits() & 0x5555555555555555L;
    long zz = 0xaaaaaaaaaaaaaaaaL >>> (64 - h.step() * 2);
    if (d > 0) {
      y = y + (zz + 1);
    } else {
      y = y | zz;
      y = y - (zz + 1);
    }
    y &= (0x5555555555555555L >>> (64 - h.step() * 2));
    return new Bits(x | y, h.step());
  }

  private static Bits move(Bits h, int dx, int dy) {
    return moveY(moveX(h, dx), dy);
  }

  static int estimateStepsByRadius(double rangeMeters, double lat) {
    if (rangeMeters == 0) {
      return 26;
    }
    int step = 1;
    while (rangeMeters < MERCATOR_MAX) {
      rangeMeters *= 2;
      step++;
    }
    step -= 2; // make sure the range is included in most of the base cases
    if (lat > 66 || lat < -66) { // wider range towards the poles
      step--;
      if (lat > 80 || lat < -80) {
        step--;
      }
    }
    return Math.max(1, Math.min(26, step));
  }

  /** A search shape: a circle (radius) or a box (width, height), in the unit of {@code conversion}. */
  static final class Shape {
    boolean box;
    double lon;
    double lat;
    /** Meters per unit of the request. */
    double conversion = 1;
    double radius;
    double width;
    double height;
  }

  private static double[] boundingBox(Shape s) {
    double height = s.conversion * (s.box ? s.height / 2 : s.radius);
    double width = s.conversion * (s.box ? s.width / 2 : s.radius);
    double latDelta = radDeg(height / EARTH_RADIUS_IN_METERS);
    double longDeltaTop = radDeg(width / EARTH_RADIUS_IN_METERS / Math.cos(degRad(s.lat + latDelta)));
    double longDeltaBottom =
        radDeg(width / EARTH_RADIUS_IN_METERS / Math.cos(degRad(s.lat - latDelta)));
    boolean southern = s.lat < 0;
    return new double[] {
        southern ? s.lon - longDeltaBottom : s.lon - longDeltaTop,
        s.lat - latDelta,
        southern ? s.lon + longDeltaBottom : s.lon + longDeltaTop,
        s.lat + latDelta};
  }

  /**
   * The boxes to scan for {@code s}, in Redis's order: centre, N, S, E, W, NE, NW, SE, SW; a
   * box found useless is a zero {@link Bits}.
   */
  static Bits[] searchBoxes(Shape s) {
    double[] bounds = boundingBox(s);
    double minLon = bounds[0];
    double minLat = bounds[1];
    double maxLon = bounds[2];
    double maxLat = bounds[3];
    double radiusMeters = s.box
        ? Math.sqrt((s.width / 2) * (s.width / 2) + (s.height / 2) * (s.height / 2))
        : s.radius;
    radiusMeters *= s.conversion;
    int steps = estimateStepsByRadius(radiusMeters, s.lat);
    Bits hash = encode(s.lon, s.lat, steps);
    Bits[] n = neighbors(hash);
    boolean decrease = decode(n[1]).latMax() < maxLat || decode(n[2]).latMin() > minLat
        || decode(n[3]).lonMax() < maxLon || decode(n[4]).lonMin() > minLon;
    if (steps > 1 && decrease) {
      steps--;
      hash = encode(s.lon, s.lat, steps);
      n = neighbors(hash);
    }
    Area area = decode(hash);
    Bits zero = new Bits(0, 0);
    if (steps >= 2) {
      if (area.latMin() < minLat) {
        n[2] = zero; // south, south-west, south-east
        n[8] = zero;
        n[7] = zero;
      }
      if (area.latMax() > maxLat) {
        n[1] = zero;
        n[5] = zero;
        n[6] = zero;
      }
      if (area.lonMin() < minLon) {
        n[4] = zero;
        n[8] = zero;
        n[6] = zero;
      }
      if (area.lonMax() > maxLon) {
        n[3] = zero;
        n[7] = zero;
        n[5] = zero;
      }
    }
    return n;
  }

  /** [hash, north, south, east, west, north-east, north-west, south-east, south-west]. */
  private static Bits[] neighbors(Bits h) {
    return new Bits[] {h, move(h, 0, 1), move(h, 0, -1), move(h, 1, 0), move(h, -1, 0),
        move(h, 1, 1), move(h, -1, 1), move(h, 1, -1), move(h, -1, -1)};
  }

  /** Scores [min, max) of every point inside {@code box}. */
  static long[] scoreRange(Bits box) {
    return new long[] {align52(box), align52(new Bits(box.bits() + 1, box.step()))};
  }

  private static double degRad(double ang) {
    return ang * D_R;
  }

  private static double radDeg(double ang) {
    return ang / D_R;
  }

  static double latDistance(double lat1d, double lat2d) {
    return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2d) - degRad(lat1d));
  }

  /** Haversine distance in meters. */
  static double distance(double lon1d, double lat1d, double lon2d, double lat2d) {
    double lon1r = degRad(lon1d);
    double lon2r = degRad(lon2d);
    double v = Math.sin((lon2r - lon1r) / 2);
    if (v == 0.0) {
      return latDistance(lat1d, lat2d);
    }
    double lat1r = degRad(lat1d);
    double lat2r = degRad(lat2d);
    double u = Math.sin((lat2r - lat1r) / 2);
    double a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
    return 2.0 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(a));
  }

  /** The distance of point (lon, lat) from the shape's centre, or -1 when outside the shape. */
  static double within(Shape s, double lon, double lat) {
    if (!s.box) {
      double d = distance(s.lon, s.lat, lon, lat);
      return d > s.radius * s.conversion ? -1 : d;
    }
    double widthM = s.width * s.conversion;
    double heightM = s.height * s.conversion;
    if (latDistance(lat, s.lat) > heightM / 2) {
      return -1;
    }
    if (distance(lon, lat, s.lon, lat) > widthM / 2) {
      return -1;
    }
    return distance(s.lon, s.lat, lon, lat);
  }

  /** Redis's fixed-point text of a distance: llrint(d * 10^4) with four decimals. */
  static String distanceText(double d) {
    if (d == 0) {
      return "0.0000";
    }
    long v = (long) Math.rint(d * 10000.0);
    boolean negative = v < 0;
    String digits = Long.toString(Math.abs(v));
    while (digits.length() < 5) {
      digits = "0" + digits;
    }
    String s = digits.substring(0, digits.length() - 4) + "." + digits.substring(digits.length() - 4);
    return negative ? "-" + s : s;
  }
}
