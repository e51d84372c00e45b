package io.cassette.cql;

/** Consistency levels with their protocol codes. */
public enum Consistency {
  ANY(0x0000), ONE(0x0001), TWO(0x0002), THREE(0x0003), QUORUM(0x0004), ALL(0x0005),
  LOCAL_QUORUM(0x0006), EACH_QUORUM(0x0007), SERIAL(0x0008), LOCAL_SERIAL(0x0009),
  LOCAL_ONE(0x000A);

  public final int code;

  Consistency(int code) {
    this.code = code;
  }

  /** By protocol code (codes are 0..10): values() would clone its array on every request decoded. */
  private static final Consistency[] BY_CODE = new Consistency[LOCAL_ONE.code + 1];

  static {
    for (Consistency c : values()) {
      BY_CODE[c.code] = c;
    }
  }

  public static Consistency fromCode(int code) {
    if (code >= 0 && code < BY_CODE.length && BY_CODE[code] != null) {
      return BY_CODE[code];
    }
    throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Unknown code " + code + " for a consistency level");
  }
}
