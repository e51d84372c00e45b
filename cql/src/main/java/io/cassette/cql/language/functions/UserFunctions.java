package io.cassette.cql.language.functions;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.FunctionFailureException;
import io.cassette.cql.language.schema.UserAggregate;
import io.cassette.cql.language.schema.UserFunction;
import io.cassette.cql.language.types.Types;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Java user-defined functions at run time: the node's settings, the compiled class of each
 * function definition (compiled once per definition, by {@link JavaUdfCompiler}), and calls
 * bounded by {@code user_defined_functions_fail_timeout}.
 *
 * <p>A call runs on a pool thread while the caller waits at most the timeout; past it the call
 * fails with FUNCTION_FAILURE and its thread is interrupted, then stopped ({@link Thread#stop}:
 * the sandboxed body holds no locks or state of the node, so stopping it is safe, and a runaway
 * loop would otherwise burn a core of a small board for ever). Cassandra's default
 * {@code user_function_timeout_policy: die} stops the node instead. The pool is bounded
 * ({@link #MAX_THREADS}); when every thread is busy, new calls fail at once.
 */
public final class UserFunctions {
  /** Settings: {@code user_defined_functions_enabled} and {@code user_defined_functions_fail_timeout}. */
  public record Settings(boolean enabled, long failTimeoutMillis) {
    /** Cassandra 5.0's defaults: off, 1500 ms. */
    public static final Settings DEFAULTS = new Settings(false, 1500);
  }

  /** Threads that may run UDF calls at once (a board has few cores; runaway calls hold one each). */
  static final int MAX_THREADS = 16;

  private static final AtomicInteger THREAD_IDS = new AtomicInteger();
  private static final ExecutorService POOL = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
      new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "udf-" + THREAD_IDS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });

  /** Compiled bodies by definition; a replaced or dropped definition's entry is simply never asked for again. */
  private static final Map<UserFunction, MethodHandle> COMPILED = new ConcurrentHashMap<>();

  private UserFunctions() {}

  /** Compiles {@code f} (refusing what Cassandra refuses), keeping the class for calls. */
  public static void compile(UserFunction f) {
    if (!f.language().equals("java")) {
      throw invalid("Currently only Java UDFs are available in Cassandra. For more information - CASSANDRA-18252"
          + " and CASSANDRA-17281");
    }
    for (CqlType t : f.argumentTypes()) {
      UdfJavaTypes.javaType(t, false);
    }
    UdfJavaTypes.javaType(f.returnType(), false);
    COMPILED.computeIfAbsent(f, JavaUdfCompiler::compile);
  }

  private static MethodHandle handle(UserFunction f) {
    MethodHandle h = COMPILED.get(f);
    if (h == null) {
      try {
        h = COMPILED.computeIfAbsent(f, JavaUdfCompiler::compile);
      } catch (io.cassette.cql.CqlException e) {
        // a stored definition that no longer compiles here (another node's newer JDK?): fail the call
        throw failure(f, e.getMessage());
      }
    }
    return h;
  }

  /**
   * Calls {@code f} on serialized arguments: null when it returns null on null input and one is
   * null; FUNCTION_FAILURE when the body throws or runs past the timeout.
   */
  public static byte[] call(UserFunction f, List<byte[]> args, long failTimeoutMillis) {
    if (!f.calledOnNullInput()) {
      for (byte[] a : args) {
        if (a == null) {
          return null;
        }
      }
    }
    Object[] in = new Object[args.size()];
    for (int i = 0; i < in.length; i++) {
      in[i] = UdfJavaTypes.toJava(f.argumentTypes().get(i), args.get(i));
    }
    MethodHandle h = handle(f);
    Running running = new Running();
    Future<Object> result;
    try {
      result = POOL.submit(() -> {
        running.start();
        try {
          return h.invokeExact(in);
        } catch (Throwable t) {
          throw new Thrown(t);
        } finally {
          running.finish();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      throw failure(f, "java.util.concurrent.RejectedExecutionException: every UDF thread is busy");
    }
    Object out;
    try {
      out = result.get(failTimeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      running.stop();
      throw failure(f, "java.util.concurrent.TimeoutException: User defined function " + describe(f)
          + " ran longer than " + failTimeoutMillis + "ms");
    } catch (InterruptedException e) {
      result.cancel(true);
      Thread.currentThread().interrupt();
      throw failure(f, e.toString());
    } catch (ExecutionException e) {
      Throwable t = e.getCause() instanceof Thrown th ? th.getCause() : e.getCause();
      throw failure(f, String.valueOf(t));
    }
    try {
      return UdfJavaTypes.fromJava(f.returnType(), out);
    } catch (ClassCastException e) {
      throw failure(f, "Invalid value for CQL type " + Types.toCql(f.returnType()));
    }
  }

  /** The pool thread running one call, while it runs it: stopped only then, never during another call. */
  private static final class Running {
    private Thread thread;
    private boolean done;

    synchronized void start() {
      thread = Thread.currentThread();
    }

    synchronized void finish() {
      done = true;
      thread = null;
      Thread.interrupted(); // a cancel's interrupt must not leak into the pool thread's next task
    }

    @SuppressWarnings({"deprecation", "removal"})
    synchronized void stop() {
      if (thread != null && !done) {
        try {
          thread.stop();
        } catch (UnsupportedOperationException e) {
          // a JDK without Thread.stop (20+): the interrupted call keeps its thread until it returns
        }
      }
    }
  }

  /** What a UDF body threw, carried out of the pool thread. */
  private static final class Thrown extends Exception {
    Thrown(Throwable cause) {
      super(cause);
    }
  }

  private static FunctionFailureException failure(UserFunction f, String message) {
    return new FunctionFailureException(f.keyspace(), f.name(), f.argumentTypeNames(), message);
  }

  /** {@code ks.f : (int, text) -> bigint}, Cassandra's toString of a function. */
  static String describe(UserFunction f) {
    return f.keyspace() + "." + f.name() + " : (" + String.join(", ", f.argumentTypeNames()) + ") -> "
        + Types.toCql(f.returnType());
  }

  /** An aggregation in progress: the state, folded one row at a time. */
  public static final class Aggregation {
    private final UserAggregate aggregate;
    private final UserFunction state;
    private final UserFunction last;
    private final long timeout;
    private byte[] value;

    public Aggregation(UserAggregate aggregate, UserFunction state, UserFunction last, long failTimeoutMillis) {
      this.aggregate = aggregate;
      this.state = state;
      this.last = last;
      this.timeout = failTimeoutMillis;
      this.value = aggregate.initcond();
    }

    public void add(List<byte[]> args) {
      if (!state.calledOnNullInput()) {
        // a state function that returns null on null input skips rows with a null argument (Cassandra's)
        for (byte[] a : args) {
          if (a == null) {
            return;
          }
        }
      }
      List<byte[]> in = new ArrayList<>(args.size() + 1);
      in.add(value);
      in.addAll(args);
      value = call(state, in, timeout);
    }

    public byte[] result() {
      return last == null ? value : call(last, java.util.Collections.singletonList(value), timeout);
    }

    public UserAggregate aggregate() {
      return aggregate;
    }
  }
}
