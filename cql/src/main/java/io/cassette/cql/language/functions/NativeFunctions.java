package io.cassette.cql.language.functions;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.language.schema.TimeUuid;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueValidation;
import io.cassette.cql.language.types.Values;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The scalar functions of Cassandra 5.0's {@code system} keyspace that Cassette has: time
 * functions (now, uuid, currentTimestamp, toTimestamp, toDate, minTimeuuid...) and blob
 * conversions (intAsBlob, blobAsInt...). Aggregates live with the selection.
 */
public final class NativeFunctions {
  private static final Map<String, List<NativeFunction>> BY_NAME = new LinkedHashMap<>();
  private static final long MIN_CLOCK_SEQ_AND_NODE = 0x8080808080808080L;
  private static final long MAX_CLOCK_SEQ_AND_NODE = 0x7f7f7f7f7f7f7f7fL;
  private static final long MILLIS_PER_DAY = 86_400_000L;

  static {
    add("now", List.of(), Types.TIMEUUID, (a, c) -> Values.ofUuid(TimeUuid.next()));
    add("currenttimeuuid", List.of(), Types.TIMEUUID, (a, c) -> Values.ofUuid(TimeUuid.next()));
    add("uuid", List.of(), Types.UUID, (a, c) -> Values.ofUuid(UUID.randomUUID()));
    add("currenttimestamp", List.of(), Types.TIMESTAMP, (a, c) -> Values.ofLong(c.nowMillis()));
    add("currentdate", List.of(), Types.DATE, (a, c) -> dateOfMillis(c.nowMillis()));
    add("currenttime", List.of(), Types.TIME, (a, c) -> Values.ofLong(
        (c.nowMillis() % MILLIS_PER_DAY) * 1_000_000L));
    add("totimestamp", List.of(Types.TIMEUUID), Types.TIMESTAMP, (a, c) -> a.get(0) == null ? null
        : Values.ofLong(TimeUuid.unixMillis(Values.toUuid(a.get(0)))));
    add("totimestamp", List.of(Types.DATE), Types.TIMESTAMP, (a, c) -> a.get(0) == null ? null
        : Values.ofLong(dateMillis(a.get(0))));
    add("todate", List.of(Types.TIMEUUID), Types.DATE, (a, c) -> a.get(0) == null ? null
        : dateOfMillis(TimeUuid.unixMillis(Values.toUuid(a.get(0)))));
    add("todate", List.of(Types.TIMESTAMP), Types.DATE, (a, c) -> a.get(0) == null ? null
        : dateOfMillis(Values.toLong(a.get(0))));
    add("tounixtimestamp", List.of(Types.TIMEUUID), Types.BIGINT, (a, c) -> a.get(0) == null ? null
        : Values.ofLong(TimeUuid.unixMillis(Values.toUuid(a.get(0)))));
    add("tounixtimestamp", List.of(Types.TIMESTAMP), Types.BIGINT, (a, c) -> a.get(0));
    add("tounixtimestamp", List.of(Types.DATE), Types.BIGINT, (a, c) -> a.get(0) == null ? null
        : Values.ofLong(dateMillis(a.get(0))));
    add("mintimeuuid", List.of(Types.TIMESTAMP), Types.TIMEUUID, (a, c) -> a.get(0) == null ? null
        : Values.ofUuid(TimeUuid.of(Values.toLong(a.get(0)), MIN_CLOCK_SEQ_AND_NODE)));
    add("maxtimeuuid", List.of(Types.TIMESTAMP), Types.TIMEUUID, (a, c) -> a.get(0) == null ? null
        : maxTimeuuid(Values.toLong(a.get(0))));
    for (Native n : Native.values()) {
      if (n == Native.BLOB) {
        continue;
      }
      String name = n.name().toLowerCase(Locale.ROOT);
      CqlType t = Types.of(n);
      add(name + "asblob", List.of(t), Types.BLOB, (a, c) -> a.get(0));
      add("blobas" + name, List.of(Types.BLOB), t, (a, c) -> {
        if (a.get(0) != null) {
          try {
            ValueValidation.validate(t, a.get(0));
          } catch (io.cassette.cql.CqlException e) {
            throw io.cassette.cql.language.Errors.invalid("In call to function system.blobas" + name + ", value "
                + io.cassette.storage.Bytes.hex(a.get(0)) + " is not a valid binary representation for type " + name);
          }
        }
        return a.get(0);
      });
    }
    MathFunctions.register(NativeFunctions::add);
    add("varcharasblob", List.of(Types.TEXT), Types.BLOB, (a, c) -> a.get(0));
    add("blobasvarchar", List.of(Types.BLOB), Types.TEXT, (a, c) -> a.get(0));
  }

  private NativeFunctions() {}

  private static byte[] maxTimeuuid(long millis) {
    return Values.ofUuid(TimeUuid.ofTicks(millis * 10_000 + 9_999, MAX_CLOCK_SEQ_AND_NODE));
  }

  private static byte[] dateOfMillis(long millis) {
    long days = Math.floorDiv(millis, MILLIS_PER_DAY);
    return Values.ofInt((int) (days + Values.DATE_EPOCH_OFFSET));
  }

  private static long dateMillis(byte[] date) {
    long days = (Values.toInt(date) & 0xFFFFFFFFL) - Values.DATE_EPOCH_OFFSET;
    return LocalDate.ofEpochDay(days).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
  }

  private static void add(String name, List<CqlType> args, CqlType ret, NativeFunction.Body body) {
    BY_NAME.computeIfAbsent(name, k -> new ArrayList<>()).add(new NativeFunction(name, args, ret, body));
  }

  public static boolean exists(String name) {
    return BY_NAME.containsKey(name.toLowerCase(Locale.ROOT)) || VectorFunctions.isSimilarity(name)
        || MaskFunctions.isMask(name);
  }

  /**
   * Picks the overload of {@code name} for the given argument types (null where an argument's
   * type is not known yet, e.g. a literal or a marker: the first overload then decides).
   */
  public static NativeFunction resolve(String name, List<CqlType> argTypes) {
    return resolve(name, argTypes, null);
  }

  /**
   * As {@link #resolve(String, List)}; {@code literalTypes} (may be null) holds, for an untyped
   * numeric literal argument, the type Cassandra prefers for it (int for 3, double for 2.5), so
   * {@code abs(-3)} is the int overload. An overload whose types all equal the given ones wins.
   */
  public static NativeFunction resolve(String name, List<CqlType> argTypes, List<CqlType> literalTypes) {
    if (VectorFunctions.isSimilarity(name)) {
      return VectorFunctions.resolve(name, argTypes, literalTypes);
    }
    if (MaskFunctions.isMask(name)) {
      return MaskFunctions.resolve(name, argTypes, null);
    }
    List<NativeFunction> cands = BY_NAME.get(name.toLowerCase(Locale.ROOT));
    if (cands == null) {
      throw invalid("Unknown function '" + name + "'");
    }
    for (NativeFunction f : cands) {
      if (f.argTypes().size() != argTypes.size() || cands.size() == 1) {
        continue;
      }
      boolean exact = true;
      for (int i = 0; i < argTypes.size() && exact; i++) {
        CqlType given = argTypes.get(i) != null ? argTypes.get(i)
            : literalTypes == null ? null : literalTypes.get(i);
        exact = given != null && given.equals(f.argTypes().get(i));
      }
      if (exact && !argTypes.isEmpty()) {
        return f;
      }
    }
    for (NativeFunction f : cands) {
      if (f.argTypes().size() != argTypes.size()) {
        continue;
      }
      boolean ok = true;
      for (int i = 0; i < argTypes.size(); i++) {
        CqlType given = argTypes.get(i);
        if (given != null && !Types.isCompatible(f.argTypes().get(i), given)) {
          ok = false;
          break;
        }
      }
      if (ok) {
        return f;
      }
    }
    StringBuilder sigs = new StringBuilder();
    for (NativeFunction f : cands) {
      if (sigs.length() > 0) {
        sigs.append(", ");
      }
      sigs.append("system.").append(f.name()).append(" : (");
      for (int i = 0; i < f.argTypes().size(); i++) {
        sigs.append(i == 0 ? "" : ", ").append(Types.toCql(f.argTypes().get(i)));
      }
      sigs.append(") -> ").append(Types.toCql(f.returnType()));
    }
    if (cands.size() == 1 && cands.get(0).argTypes().size() != argTypes.size()) {
      throw invalid("Invalid number of arguments in call to function system." + cands.get(0).name()
          + ": " + cands.get(0).argTypes().size() + " required but " + argTypes.size() + " provided");
    }
    throw invalid("Invalid call to function " + name.toLowerCase(Locale.ROOT)
        + ", none of its type signatures match (known type signatures: " + sigs + ")");
  }

  /** Milliseconds → Instant, for messages. */
  static Instant instant(long millis) {
    return Instant.ofEpochMilli(millis);
  }
}
