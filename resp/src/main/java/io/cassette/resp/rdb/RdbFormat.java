package io.cassette.resp.rdb;

/**
 * The constants of Redis's RDB format that reader and writer share (Redis 7.0, RDB version 10).
 * Do not change these values: they are Redis's, on disk and in DUMP payloads.
 *
 * <pre>
 *  file    := "REDIS" version(4 ASCII digits) item* 0xFF crc64(8, LE; 0 = not checked)
 *  item    := AUX key:string value:string | FUNCTION2 code:string
 *           | SELECTDB db:length | RESIZEDB keys:length expires:length
 *           | [EXPIRETIME_MS ms(8, LE) | EXPIRETIME s(4, LE)] [IDLE length] [FREQ byte]
 *             type(1) key:string value
 *  payload := type(1) value version(2, LE) crc64(8, LE)          (DUMP / RESTORE)
 *  length  := 00xxxxxx | 01xxxxxx yyyyyyyy (BE) | 0x80 uint32(BE) | 0x81 uint64(BE)
 *  string  := length bytes | 0xC0 int8 | 0xC1 int16(LE) | 0xC2 int32(LE)
 *           | 0xC3 compressed:length raw:length lzf-bytes
 * </pre>
 *
 * Values by type: see {@link RdbValueReader}.
 */
public final class RdbFormat {
  /** The RDB version Redis 7.0 writes; a DUMP payload of a later one is refused, as Redis does. */
  public static final int VERSION = 10;

  public static final int TYPE_STRING = 0;
  public static final int TYPE_LIST = 1;
  public static final int TYPE_SET = 2;
  public static final int TYPE_ZSET = 3;
  public static final int TYPE_HASH = 4;
  public static final int TYPE_ZSET_2 = 5;
  public static final int TYPE_MODULE = 6;
  public static final int TYPE_MODULE_2 = 7;
  public static final int TYPE_HASH_ZIPMAP = 9;
  public static final int TYPE_LIST_ZIPLIST = 10;
  public static final int TYPE_SET_INTSET = 11;
  public static final int TYPE_ZSET_ZIPLIST = 12;
  public static final int TYPE_HASH_ZIPLIST = 13;
  public static final int TYPE_LIST_QUICKLIST = 14;
  public static final int TYPE_STREAM_LISTPACKS = 15;
  public static final int TYPE_HASH_LISTPACK = 16;
  public static final int TYPE_ZSET_LISTPACK = 17;
  public static final int TYPE_LIST_QUICKLIST_2 = 18;
  public static final int TYPE_STREAM_LISTPACKS_2 = 19;
  /** Redis 7.2 (RDB 11); read, never written. */
  public static final int TYPE_SET_LISTPACK = 20;

  public static final int OP_FUNCTION2 = 0xF5;
  public static final int OP_FUNCTION = 0xF6;
  public static final int OP_MODULE_AUX = 0xF7;
  public static final int OP_IDLE = 0xF8;
  public static final int OP_FREQ = 0xF9;
  public static final int OP_AUX = 0xFA;
  public static final int OP_RESIZEDB = 0xFB;
  public static final int OP_EXPIRETIME_MS = 0xFC;
  public static final int OP_EXPIRETIME = 0xFD;
  public static final int OP_SELECTDB = 0xFE;
  public static final int OP_EOF = 0xFF;

  /** Quicklist 2 node containers. */
  static final int QUICKLIST_NODE_PLAIN = 1;
  static final int QUICKLIST_NODE_PACKED = 2;

  /** Redis 7.0's defaults for choosing the compact encodings when writing. */
  static final int LIST_NODE_BYTES = 8192; // list-max-listpack-size -2
  static final int HASH_MAX_LISTPACK_ENTRIES = 128;
  static final int HASH_MAX_LISTPACK_VALUE = 64;
  static final int ZSET_MAX_LISTPACK_ENTRIES = 128;
  static final int ZSET_MAX_LISTPACK_VALUE = 64;

  private RdbFormat() {}

  /** The type's name in error messages. */
  static String typeName(int type) {
    return switch (type) {
      case TYPE_MODULE, TYPE_MODULE_2 -> "module value";
      case TYPE_STREAM_LISTPACKS, TYPE_STREAM_LISTPACKS_2, 21 -> "stream";
      case TYPE_HASH_ZIPMAP -> "hash (zipmap, Redis 2.x)";
      default -> "type " + type;
    };
  }
}
