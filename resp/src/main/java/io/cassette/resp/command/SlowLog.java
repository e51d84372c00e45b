package io.cassette.resp.command;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** SLOWLOG: the last commands that took longer than slowlog-log-slower-than. Command thread only. */
public final class SlowLog {
  /** Redis keeps at most 32 arguments of 128 bytes per entry. */
  static final int MAX_ARGS = 32;
  static final int MAX_ARG_BYTES = 128;

  public record Entry(long id, long timestampSeconds, long micros, List<byte[]> args,
                      String client, String clientName) {}

  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private long nextId;

  public void record(long micros, byte[][] args, String client, String clientName, int maxLen) {
    List<byte[]> kept = new ArrayList<>();
    for (int i = 0; i < args.length && i < MAX_ARGS; i++) {
      byte[] a = args[i];
      if (i == MAX_ARGS - 1 && args.length > MAX_ARGS) {
        kept.add(Args.bytes("... (" + (args.length - MAX_ARGS + 1) + " more arguments)"));
      } else if (a.length > MAX_ARG_BYTES) {
        kept.add(Args.bytes(new String(a, 0, MAX_ARG_BYTES, java.nio.charset.StandardCharsets.ISO_8859_1)
            + "... (" + (a.length - MAX_ARG_BYTES) + " more bytes)"));
      } else {
        kept.add(a);
      }
    }
    entries.addFirst(new Entry(nextId++, System.currentTimeMillis() / 1000, micros, kept, client,
        clientName));
    while (entries.size() > Math.max(0, maxLen)) {
      entries.removeLast();
    }
  }

  public List<Entry> latest(int count) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      if (out.size() >= count) {
        break;
      }
      out.add(e);
    }
    return out;
  }

  public int size() {
    return entries.size();
  }

  public void reset() {
    entries.clear();
  }
}
