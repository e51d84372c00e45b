package io.cassette.resp.keyspace;

/** The Redis type of a key; {@code code} is stored in the metadata row (do not change). */
public enum KeyType {
  STRING(1, "string"), HASH(2, "hash"), LIST(3, "list"), SET(4, "set"), ZSET(5, "zset"), STREAM(6, "stream");

  public final int code;
  public final String typeName;

  KeyType(int code, String typeName) {
    this.code = code;
    this.typeName = typeName;
  }

  static KeyType ofCode(int code) {
    for (KeyType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown Redis key type code " + code);
  }

  /** The type named as TYPE and SCAN ... TYPE spell it, or null. */
  public static KeyType ofName(String name) {
    for (KeyType t : values()) {
      if (t.typeName.equalsIgnoreCase(name)) {
        return t;
      }
    }
    return null;
  }
}
