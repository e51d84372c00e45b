package io.cassette.resp.script;

import java.lang.management.ManagementFactory;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;

/**
 * LuaJ's debug hook, used as Redis uses its count hook: every {@link #CHECK_EVERY}
 * instructions it looks whether the running script was killed (SCRIPT KILL, FUNCTION KILL)
 * or grew past its memory bound, and stops it with an {@link ScriptAbort} that {@code pcall}
 * cannot catch. It also keeps the current line of each Lua frame, for Redis's
 * "script: NAME, on @user_script:LINE." error suffix.
 *
 * <p>Memory: LuaJ has no allocator hook, so the bound is approximate: each time a script has
 * allocated another {@link #allocationSlack} bytes on its thread, the heap is looked at; if it
 * is more than {@link #HEAP_FRACTION} full even after a collection, the script is stopped
 * before the JVM runs out of memory (the node runs with ExitOnOutOfMemoryError: an
 * OutOfMemoryError would end it). A script that only makes garbage runs on.
 * Used by one script thread at a time.
 */
final class ScriptGuard extends DebugLib {
  /** Instructions between two checks: cheap enough, and a check every few milliseconds. */
  static final int CHECK_EVERY = 10_000;
  /** Heap use above which a heavily allocating script is stopped. */
  static final double HEAP_FRACTION = 0.6;

  private static final com.sun.management.ThreadMXBean THREADS =
      ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
          && t.isThreadAllocatedMemorySupported() ? t : null;

  /**
   * Live heap above which an allocating script is stopped: {@link #HEAP_FRACTION} of the heap,
   * or the system property {@code cassette.script.maxHeapBytes} (tests on a large heap).
   */
  private final long heapLimit = Long.getLong("cassette.script.maxHeapBytes",
      (long) (Runtime.getRuntime().maxMemory() * HEAP_FRACTION));
  /**
   * The longest string a script may build: a quarter of the heap bound, at most Redis's
   * proto-max-bulk-len default (512 MB). One concatenation allocates it whole, between two
   * checks, so it is bounded where it is made (LuaString, Buffer, string.rep).
   */
  static long maxStringBytes() {
    long limit = Long.getLong("cassette.script.maxHeapBytes",
        (long) (Runtime.getRuntime().maxMemory() * HEAP_FRACTION));
    return Math.max(1L << 20, Math.min(512L << 20, limit / 4));
  }

  /** Bytes a script allocates between two looks at the heap. */
  private final long allocationSlack = Math.max(4L << 20, heapLimit / 8);
  private int countdown = CHECK_EVERY;
  /** The running script, null between scripts (then nothing is checked). */
  private volatile ScriptRun run;
  private long allocatedAtStart;

  // Lua frames: prototype (null for Java functions) and current pc, innermost last.
  private Prototype[] protos = new Prototype[16];
  private int[] pcs = new int[16];
  private int depth;
  /** The frame last returned from: a tail call's frame is gone before its callee runs. */
  private Prototype lastProto;
  private int lastPc;

  void begin(ScriptRun r) {
    depth = 0;
    lastProto = null;
    countdown = CHECK_EVERY;
    allocatedAtStart = THREADS != null ? THREADS.getCurrentThreadAllocatedBytes() : 0;
    run = r;
  }

  void end() {
    run = null;
    depth = 0;
  }

  @Override
  public void onCall(LuaFunction f) {
    super.onCall(f);
    push(null);
  }

  @Override
  public void onCall(LuaClosure c, Varargs varargs, org.luaj.vm2.LuaValue[] stack) {
    super.onCall(c, varargs, stack);
    push(c.p);
  }

  @Override
  public void onReturn() {
    super.onReturn();
    if (depth > 0) {
      depth--;
      if (protos[depth] != null) {
        lastProto = protos[depth];
        lastPc = pcs[depth];
      }
    }
  }

  @Override
  public void onInstruction(int pc, Varargs v, int top) {
    if (depth > 0) {
      pcs[depth - 1] = pc;
    }
    if (--countdown <= 0) {
      countdown = CHECK_EVERY;
      check();
    }
    super.onInstruction(pc, v, top);
  }

  /** Stops the script if it was killed or holds too much memory. */
  void check() {
    ScriptRun r = run;
    if (r == null) {
      return;
    }
    if (r.killed) {
      throw new ScriptAbort(r.killMessage());
    }
    if (r.deadlineNanos != Long.MAX_VALUE && System.nanoTime() > r.deadlineNanos) {
      r.killedFor = "ERR FUNCTION LOAD timeout";
      r.killed = true;
      throw new ScriptAbort(r.killMessage());
    }
    if (THREADS != null) {
      long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedAtStart;
      if (allocated > allocationSlack) {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        if (used > heapLimit) {
          // Most of what a script allocates is garbage: collect, then judge what is live.
          System.gc();
          used = rt.totalMemory() - rt.freeMemory();
        }
        if (used > heapLimit) {
          r.killed = true;
          r.killedFor = "ERR Script used too much memory and was stopped (" + (used >> 20)
              + " MB of heap live after a collection, limit " + (heapLimit >> 20) + " MB)";
          throw new ScriptAbort(r.killMessage());
        }
        allocatedAtStart = THREADS.getCurrentThreadAllocatedBytes(); // next look after as much again
      }
    }
  }

  /** The innermost Lua frame's prototype and pc, or null. */
  Object[] frame() {
    for (int i = depth - 1; i >= 0; i--) {
      if (protos[i] != null) {
        return new Object[] {protos[i], pcs[i]};
      }
    }
    return null;
  }

  /** "@user_script" and the current line of the innermost Lua frame, or null. */
  String[] position() {
    for (int i = depth - 1; i >= 0; i--) {
      Prototype p = protos[i];
      if (p != null) {
        int pc = pcs[i];
        int line = p.lineinfo != null && pc >= 0 && pc < p.lineinfo.length ? p.lineinfo[pc] : 0;
        return new String[] {p.source.tojstring(), Integer.toString(line)};
      }
    }
    if (lastProto != null) {
      int line = lastProto.lineinfo != null && lastPc >= 0 && lastPc < lastProto.lineinfo.length
          ? lastProto.lineinfo[lastPc] : 0;
      return new String[] {lastProto.source.tojstring(), Integer.toString(line)};
    }
    return null;
  }

  private void push(Prototype p) {
    if (depth == protos.length) {
      protos = java.util.Arrays.copyOf(protos, depth * 2);
      pcs = java.util.Arrays.copyOf(pcs, depth * 2);
    }
    protos[depth] = p;
    pcs[depth] = 0;
    depth++;
  }

  /** Ends a script from the hook; an Error, so Lua's pcall does not catch it. */
  static final class ScriptAbort extends Error {
    ScriptAbort(String redisText) {
      super(redisText, null, false, false);
    }
  }
}
