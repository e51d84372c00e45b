package io.cassette.resp.keyspace;

import java.util.Arrays;

/**
 * Every member of one hash, set or sorted set (their sub-row clusterings, tag byte included),
 * each with its value when the value is small: an open-addressing table over one byte arena,
 * about 10 bytes of overhead per member beside its bytes, so a 100,000-member collection costs
 * a few MiB instead of the ~130 bytes per entry of a {@code HashMap} of arrays. Entries are
 * {@code [member length][member][value length or VALUE_UNKNOWN][value]} in the arena; a
 * removed or replaced entry leaves garbage that is compacted away once it is half the arena.
 * Not thread-safe: the command thread owns it.
 */
final class MemberTable {
  /** Longest clustering kept (its length is one byte in the arena). */
  static final int MAX_MEMBER_BYTES = 255;
  /** Longest value kept beside its member (a sorted set's 8-byte score fits). */
  static final int MAX_VALUE_BYTES = 16;
  private static final int VALUE_UNKNOWN = 255;
  private static final int EMPTY = 0;
  private static final int DELETED = -1;
  /** Array headers and fields, counted once per table. */
  private static final int FIXED_BYTES = 96;

  /** The clustering tag of this collection's members ({@link RedisLayout#HASH_FIELD}...). */
  final byte tag;
  /** Arena offset + 1 of each slot's entry, or EMPTY / DELETED. */
  private int[] slots = new int[8];
  private byte[] arena = new byte[64];
  private int used;
  private int garbage;
  private int live;
  private int deleted;

  MemberTable(byte tag) {
    this.tag = tag;
  }

  /** Whether this table holds members like {@code clustering} (same tag). */
  boolean covers(byte[] clustering) {
    return clustering.length > 0 && clustering[0] == tag;
  }

  /** Whether {@code member} could be kept at all (short enough). */
  static boolean fits(byte[] member) {
    return member.length <= MAX_MEMBER_BYTES;
  }

  int size() {
    return live;
  }

  /** Heap bytes held, as the budget counts them. */
  long heapBytes() {
    return FIXED_BYTES + 4L * slots.length + arena.length;
  }

  boolean contains(byte[] member) {
    return slotOf(member) >= 0;
  }

  /** Sentinel of {@link #value}: the member is here but its value was too long to keep. */
  static final byte[] PRESENT_VALUE_UNKNOWN = new byte[0];

  /** The member's value, {@link #PRESENT_VALUE_UNKNOWN}, or null when it is not a member. */
  byte[] value(byte[] member) {
    int s = slotOf(member);
    if (s < 0) {
      return null;
    }
    int at = slots[s] - 1 + 1 + member.length;
    int vlen = arena[at] & 0xFF;
    return vlen == VALUE_UNKNOWN ? PRESENT_VALUE_UNKNOWN : Arrays.copyOfRange(arena, at + 1, at + 1 + vlen);
  }

  /** Adds {@code member} or replaces its value ({@code value} null or long: kept as unknown). */
  void put(byte[] member, byte[] value) {
    if (!fits(member)) {
      throw new IllegalArgumentException("member of " + member.length + " bytes");
    }
    int vlen = value == null || value.length > MAX_VALUE_BYTES ? VALUE_UNKNOWN : value.length;
    int s = slotOf(member);
    if (s >= 0) {
      int at = slots[s] - 1 + 1 + member.length;
      int old = arena[at] & 0xFF;
      if (old == vlen) { // same length: in place
        writeValue(at, vlen, value);
        return;
      }
      garbage += entryBytes(member.length, old);
      slots[s] = append(member, vlen, value) + 1;
      compactIfWasteful();
      return;
    }
    if ((live + deleted + 1) * 4L > slots.length * 3L) {
      rehash(Math.max(8, Integer.highestOneBit(Math.max(1, live + 1) * 2) * 2));
    }
    int at = append(member, vlen, value);
    int i = firstFreeSlot(hash(member));
    if (slots[i] == DELETED) {
      deleted--;
    }
    slots[i] = at + 1;
    live++;
  }

  void remove(byte[] member) {
    int s = slotOf(member);
    if (s < 0) {
      return;
    }
    int at = slots[s] - 1;
    garbage += entryBytes(member.length, arena[at + 1 + member.length] & 0xFF);
    slots[s] = DELETED;
    live--;
    deleted++;
    compactIfWasteful();
  }

  private static int entryBytes(int memberLength, int vlen) {
    return 2 + memberLength + (vlen == VALUE_UNKNOWN ? 0 : vlen);
  }

  private void writeValue(int at, int vlen, byte[] value) {
    arena[at] = (byte) vlen;
    if (vlen != VALUE_UNKNOWN) {
      System.arraycopy(value, 0, arena, at + 1, vlen);
    }
  }

  /** Appends an entry; returns its offset. */
  private int append(byte[] member, int vlen, byte[] value) {
    int need = entryBytes(member.length, vlen);
    if (used + need > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(used + need, arena.length + (arena.length >> 1)));
    }
    int at = used;
    arena[at] = (byte) member.length;
    System.arraycopy(member, 0, arena, at + 1, member.length);
    writeValue(at + 1 + member.length, vlen, value);
    used += need;
    return at;
  }

  /** Slot holding {@code member}, or -1. */
  private int slotOf(byte[] member) {
    int mask = slots.length - 1;
    for (int i = hash(member) & mask; ; i = (i + 1) & mask) {
      int v = slots[i];
      if (v == EMPTY) {
        return -1;
      }
      if (v != DELETED && equalsAt(v - 1, member)) {
        return i;
      }
    }
  }

  private int firstFreeSlot(int hash) {
    int mask = slots.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      if (slots[i] == EMPTY || slots[i] == DELETED) {
        return i;
      }
    }
  }

  private boolean equalsAt(int at, byte[] member) {
    return (arena[at] & 0xFF) == member.length
        && Arrays.equals(arena, at + 1, at + 1 + member.length, member, 0, member.length);
  }

  private static int hash(byte[] b) {
    int h = 0x811C9DC5;
    for (byte x : b) {
      h = (h ^ x) * 0x01000193;
    }
    return h ^ (h >>> 16);
  }

  private void compactIfWasteful() {
    if (garbage > 1024 && garbage * 2 > used) {
      rehash(Math.max(8, Integer.highestOneBit(Math.max(1, live) * 2) * 2));
    }
  }

  /** Rebuilds slots (and the arena without garbage) at {@code capacity} slots. */
  private void rehash(int capacity) {
    int[] oldSlots = slots;
    byte[] oldArena = arena;
    slots = new int[capacity];
    arena = new byte[Math.max(64, used - garbage + (used - garbage) / 4)];
    used = 0;
    garbage = 0;
    deleted = 0;
    for (int v : oldSlots) {
      if (v == EMPTY || v == DELETED) {
        continue;
      }
      int at = v - 1;
      int mlen = oldArena[at] & 0xFF;
      int vlen = oldArena[at + 1 + mlen] & 0xFF;
      int len = entryBytes(mlen, vlen);
      int to = used;
      System.arraycopy(oldArena, at, arena, to, len);
      used += len;
      int h = hashAt(to + 1, mlen);
      slots[firstFreeSlot(h)] = to + 1;
    }
  }

  private int hashAt(int from, int length) {
    int h = 0x811C9DC5;
    for (int i = from; i < from + length; i++) {
      h = (h ^ arena[i]) * 0x01000193;
    }
    return h ^ (h >>> 16);
  }
}
