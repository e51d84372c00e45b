package io.cassette.resp.script;

import io.cassette.resp.command.CommandContext;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs EVAL scripts and functions, atomically with respect to every other command.
 *
 * <p>Threading: a script runs on the script thread while the command thread waits for it, so
 * the script owns the dataset as any command does (redis.call runs commands right there).
 * Most scripts end within {@code busy-reply-threshold} (default 5000 ms) and the wait is all
 * there is. A script still running then is detached: the command thread goes back to serving
 * sockets and answers every other command with Redis's BUSY error, except SCRIPT KILL,
 * FUNCTION KILL and the few commands Redis allows (its "allow-busy" flag), until the script
 * ends; then its reply is sent and its client goes on. Inside MULTI/EXEC a script is never
 * detached (the rest of the transaction must follow it).
 *
 * <p>Bounds: {@link ScriptGuard} checks every 10,000 instructions whether the script was
 * killed or holds too much memory; the script cache is bounded ({@link ScriptCache}).
 */
public final class ScriptEngine {
  private static final Logger LOG = LoggerFactory.getLogger(ScriptEngine.class);
  /** Java stack of the script thread: deep Lua recursion ends in "stack overflow", not a crash. */
  static final long SCRIPT_STACK_BYTES = 16L << 20;
  static final long DEFAULT_BUSY_MILLIS = 5000;
  private static final int RUNNING = 0;
  private static final int DONE = 1;
  private static final int DETACHED = 2;

  final ServerContext server;
  final RedisApi api;
  final LuaInterpreter eval;
  final LuaInterpreter functionsLua;
  final ScriptCache cache = new ScriptCache();
  final FunctionRegistry functions;
  private final ExecutorService thread;
  /** The runtime redis table of the functions interpreter (swapped for loading). */
  final LuaTable functionsRuntimeApi;
  private volatile ScriptRun running;
  private volatile LuaInterpreter runningIn;
  private volatile boolean busy;

  public ScriptEngine(ServerContext server, Path functionsFile) {
    this.server = server;
    org.luaj.vm2.LuaString.maxScriptBytes = ScriptGuard.maxStringBytes();
    this.api = new RedisApi(this, server);
    this.eval = new LuaInterpreter();
    eval.globals.internalSet("redis", api.runtime());
    eval.seal();
    this.functionsLua = new LuaInterpreter();
    functionsLua.globals.internalSet("redis", api.runtime());
    functionsLua.seal();
    this.functionsRuntimeApi = (LuaTable) functionsLua.globals.rawget("redis");
    this.thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(null, r, "resp-script", SCRIPT_STACK_BYTES);
      t.setDaemon(true);
      return t;
    });
    this.functions = new FunctionRegistry(this, functionsFile);
  }

  /** True while a detached script runs: other clients get BUSY. */
  public boolean busy() {
    return busy;
  }

  /** Redis's BUSY text for the running script's kind. */
  public String busyError() {
    ScriptRun r = running;
    return r != null && r.function
        ? "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE."
        : "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
  }

  /** Commands served while a script is busy (Redis 7.0's allow-busy flag). */
  public static boolean allowedWhileBusy(String name, byte[][] args) {
    switch (name) {
      case "auth", "discard", "hello", "multi", "quit", "reset", "shutdown", "unwatch", "watch":
        return true;
      case "script":
        return args.length > 1 && RedisApi.lower(args[1]).equals("kill");
      case "function": {
        String sub = args.length > 1 ? RedisApi.lower(args[1]) : "";
        return sub.equals("kill") || sub.equals("stats");
      }
      default:
        return false;
    }
  }

  ScriptRun current() {
    return running;
  }

  LuaInterpreter currentInterpreter() {
    return runningIn != null ? runningIn : eval;
  }

  ScriptRun runningScript() {
    return running;
  }

  long busyThresholdMillis() {
    String v = server.config.get("busy-reply-threshold");
    try {
      return v == null ? DEFAULT_BUSY_MILLIS : Long.parseLong(v);
    } catch (NumberFormatException e) {
      return DEFAULT_BUSY_MILLIS;
    }
  }

  /** A fake client for redis.call: the caller's database, user and connection. */
  static Session scriptClient(Session caller) {
    Session s = new Session(-1, caller.channel);
    s.db = caller.db;
    s.user = caller.user;
    s.authenticated = true;
    s.name = caller.name;
    return s;
  }

  /**
   * Runs {@code fn} for {@code c}'s client and writes its reply (now, or when a detached
   * script ends). EVAL scripts get KEYS and ARGV as globals, functions as arguments.
   */
  void execute(CommandContext c, ScriptRun run, LuaInterpreter lua, LuaFunction fn,
               LuaTable keys, LuaTable argv) {
    Session caller = c.session;
    AtomicInteger state = new AtomicInteger(RUNNING);
    CompletableFuture<byte[]> done = new CompletableFuture<>();
    running = run;
    runningIn = lua;
    int protocol = caller.protocol();
    try {
      thread.execute(() -> {
        byte[] reply = body(run, lua, fn, keys, argv, protocol);
        done.complete(reply);
        if (!state.compareAndSet(RUNNING, DONE)) {
          server.commandThread.execute(() -> finishDetached(run, caller, reply));
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      running = null;
      runningIn = null;
      throw new io.cassette.resp.command.RedisException("ERR the server is shutting down");
    }
    long wait = c.mayBlock ? busyThresholdMillis() : Long.MAX_VALUE;
    byte[] reply;
    try {
      reply = wait <= 0 ? done.get() : done.get(wait, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      if (state.compareAndSet(RUNNING, DETACHED)) {
        LOG.warn("script {} still running after {} ms: other clients get BUSY until it ends",
            run.name, wait);
        busy = true;
        caller.blocked = new Session.Blocked(new byte[0][], List.of(), 0);
        return;
      }
      reply = done.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reply = done.join();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    running = null;
    runningIn = null;
    countError(run, reply);
    c.reply().buffer().writeBytes(reply);
  }

  /** A script's error reply counts in INFO errorstats, as any command's. */
  private void countError(ScriptRun run, byte[] reply) {
    if (reply.length > 0 && reply[0] == '-' && !run.errorCounted) {
      int end = 1;
      while (end < reply.length && reply[end] != '\r') {
        end++;
      }
      server.stats.countError(new String(reply, 1, end - 1, java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /** INFO memory's scripting lines (Redis 7.0's names). */
  public void info(StringBuilder sb) {
    sb.append("number_of_cached_scripts:").append(cache.size())
        .append("\r\nused_memory_scripts_eval:").append(cache.bodyBytes())
        .append("\r\nnumber_of_functions:").append(functions.functionCount())
        .append("\r\nnumber_of_libraries:").append(functions.libraries().size())
        .append("\r\n");
  }

  private void finishDetached(ScriptRun run, Session caller, byte[] reply) {
    busy = false;
    running = null;
    runningIn = null;
    caller.blocked = null;
    countError(run, reply);
    server.deliver(caller, r -> r.buffer().writeBytes(reply));
    if (server.runner != null) {
      server.runner.resume(caller);
    }
  }

  /** On the script thread: runs the script and returns its reply's RESP bytes. */
  private byte[] body(ScriptRun run, LuaInterpreter lua, LuaFunction fn, LuaTable keys,
                      LuaTable argv, int protocol) {
    ByteBuf buf = Unpooled.buffer(64);
    Reply out = new Reply();
    out.protocol(protocol);
    out.target(buf);
    lua.lastErrorPosition = null;
    lua.guard.begin(run);
    try {
      Varargs result;
      if (run.function) {
        result = fn.invoke(LuaValue.varargsOf(keys, argv));
      } else {
        lua.globals.internalSet("KEYS", keys);
        lua.globals.internalSet("ARGV", argv);
        result = fn.invoke();
      }
      int mark = buf.writerIndex();
      try {
        LuaToResp.write(result.arg1(), out, run.resp);
      } catch (LuaError | StackOverflowError e) {
        buf.writerIndex(mark);
        out.error("ERR reached lua stack limit");
      }
    } catch (LuaError e) {
      out.error(errorText(e, run, lua));
    } catch (ScriptGuard.ScriptAbort e) {
      out.error(e.getMessage());
    } catch (StackOverflowError e) {
      out.error("ERR Error running script " + run.name + ": stack overflow");
    } catch (RuntimeException e) {
      LOG.error("script {} failed", run.name, e);
      out.error("ERR Error running script " + run.name + ": " + e);
    } finally {
      lua.guard.end();
      out.target(null);
    }
    byte[] bytes = new byte[buf.readableBytes()];
    buf.readBytes(bytes);
    buf.release();
    return bytes;
  }

  /**
   * Redis 7.0's reply for a script that raised: the error table's text (a raised string gets
   * "ERR " first), then " script: NAME, on @SOURCE:LINE." when the place is known.
   */
  static String errorText(LuaError e, ScriptRun run, LuaInterpreter lua) {
    LuaValue obj = e.getMessageObject();
    String msg;
    String source = null;
    String line = null;
    if (obj instanceof LuaTable t && !(obj instanceof ReadOnlyTable)) {
      LuaValue err = t.rawget("err");
      msg = err.isstring() ? LuaToResp.errorText(err.tojstring()) : "ERR unknown error";
      run.errorCounted = t.rawget("ignore_err_stats_update").toboolean();
      if (t.rawget("source").isstring() && t.rawget("line").isnumber()) {
        source = t.rawget("source").tojstring();
        line = t.rawget("line").tojstring();
      }
    } else {
      msg = "ERR " + LuaInterpreter.luaMessage(obj == null ? e.getMessage() : obj.tojstring());
    }
    if (source == null && lua.lastErrorPosition != null) {
      source = lua.lastErrorPosition[0];
      line = lua.lastErrorPosition[1];
    }
    return source == null ? msg : msg + " script: " + run.name + ", on " + source + ":" + line + ".";
  }

  /** SCRIPT KILL / FUNCTION KILL: null when the script will stop, else the error reply. */
  String kill(boolean function) {
    ScriptRun r = running;
    if (r == null) {
      return "NOTBUSY No scripts in execution right now.";
    }
    if (r.function != function) {
      return busyError();
    }
    synchronized (r) { // against a write starting now (RedisApi.call)
      if (r.wrote) {
        return "UNKILLABLE Sorry the script already executed write commands against the dataset. "
            + "You can either wait the script termination or kill the server in a hard way using "
            + "the SHUTDOWN NOSAVE command.";
      }
      r.killed = true;
    }
    return null;
  }

  /** Stops the script thread and writes pending function changes (server shutdown). */
  public void close() {
    ScriptRun r = running;
    if (r != null) {
      r.killed = true;
    }
    thread.shutdownNow();
    try {
      server.commandThread.submit(functions::writeIfDirty).get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      functions.writeIfDirty(); // the command thread is gone: nothing else touches them now
    }
  }
}
