package io.cassette.resp.script;

import static io.cassette.resp.command.CommandSpec.NO_AUTH;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import java.util.Locale;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (LOAD, EXISTS, FLUSH, KILL, HELP), with
 * Redis 7.0's replies and errors.
 */
public final class ScriptCommands {
  private ScriptCommands() {}

  public static void register(CommandTable t) {
    int flags = CommandSpec.DENY_OOM;
    t.add("eval", -3, flags, c -> eval(c, false, false));
    t.add("evalsha", -3, flags, c -> eval(c, true, false));
    t.add("eval_ro", -3, flags | CommandSpec.READONLY, c -> eval(c, false, true));
    t.add("evalsha_ro", -3, flags | CommandSpec.READONLY, c -> eval(c, true, true));
    t.add("script", -2, 0, ScriptCommands::script);
    t.add("function", -2, 0, FunctionCommands::function);
    t.add("fcall", -3, flags, c -> FunctionCommands.fcall(c, false));
    t.add("fcall_ro", -3, flags | CommandSpec.READONLY, c -> FunctionCommands.fcall(c, true));
    assert (flags & NO_AUTH) == 0;
  }

  /**
   * The keys of an EVAL/EVALSHA/EVAL_RO/EVALSHA_RO/FCALL/FCALL_RO call (numkeys, then the
   * keys: Redis's "movablekeys"); null for any other command; empty when numkeys is bad.
   */
  public static java.util.List<byte[]> keyArguments(String name, byte[][] args) {
    switch (name) {
      case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro":
        break;
      default:
        return null;
    }
    java.util.List<byte[]> keys = new java.util.ArrayList<>();
    Long n = args.length > 2 ? Args.parseLongOrNull(args[2]) : null;
    if (n == null || n < 0 || n > args.length - 3) {
      return keys;
    }
    for (int i = 0; i < n; i++) {
      keys.add(args[3 + i]);
    }
    return keys;
  }

  static ScriptEngine engine(CommandContext c) {
    ScriptEngine e = c.server.scripts;
    if (e == null) {
      throw new RedisException("ERR scripting is not available on this server");
    }
    return e;
  }

  private static void eval(CommandContext c, boolean bySha, boolean readOnlyCommand) {
    ScriptEngine engine = engine(c);
    int numkeys = numkeys(c);
    ScriptCache.Script script;
    if (bySha) {
      String sha = c.argString(1).toLowerCase(Locale.ROOT);
      script = engine.cache.get(sha);
      if (script == null) {
        throw new RedisException("NOSCRIPT No matching script. Please use EVAL.");
      }
    } else {
      script = compile(engine, c.arg(1));
    }
    boolean readOnly = readOnlyCommand || script.flags().noWrites();
    if (readOnlyCommand && !script.flags().legacy() && !script.flags().noWrites()) {
      throw new RedisException("ERR Can not execute a script with write flag using *_ro command.");
    }
    ScriptRun run = new ScriptRun(c.session, ScriptEngine.scriptClient(c.session), script.sha(),
        false, c.args, readOnly);
    engine.execute(c, run, engine.eval, script.function(), keys(c, numkeys),
        args(c, numkeys));
  }

  /** The cached script for {@code body}, compiled on first use. */
  static ScriptCache.Script compile(ScriptEngine engine, byte[] body) {
    String sha = ScriptCache.sha1hex(body);
    ScriptCache.Script s = engine.cache.get(sha);
    if (s != null) {
      return s;
    }
    ScriptFlags flags = ScriptFlags.ofEvalBody(body);
    LuaFunction fn;
    try {
      fn = engine.eval.compile(ScriptFlags.withoutShebang(body), "@user_script");
    } catch (LuaError e) {
      throw new RedisException("ERR Error compiling script (new function): "
          + LuaInterpreter.luaMessage(e.getMessage()));
    }
    s = new ScriptCache.Script(sha, body, fn, flags);
    engine.cache.put(s);
    return s;
  }

  /** EVAL's and FCALL's numkeys (argument 2), checked as Redis does. */
  static int numkeys(CommandContext c) {
    long n = Args.parseLong(c.arg(2));
    if (n < 0) {
      throw new RedisException("ERR Number of keys can't be negative");
    }
    if (n > c.argc() - 3) {
      throw new RedisException("ERR Number of keys can't be greater than number of args");
    }
    return (int) n;
  }

  static LuaTable keys(CommandContext c, int numkeys) {
    LuaTable t = new LuaTable(numkeys, 0);
    for (int i = 0; i < numkeys; i++) {
      t.rawset(i + 1, LuaValue.valueOf(c.arg(3 + i)));
    }
    return t;
  }

  static LuaTable args(CommandContext c, int numkeys) {
    int n = c.argc() - 3 - numkeys;
    LuaTable t = new LuaTable(n, 0);
    for (int i = 0; i < n; i++) {
      t.rawset(i + 1, LuaValue.valueOf(c.arg(3 + numkeys + i)));
    }
    return t;
  }

  private static void script(CommandContext c) {
    ScriptEngine engine = engine(c);
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    switch (sub) {
      case "load" -> {
        arity(c, 3, "script|load");
        c.reply().bulk(compile(engine, c.arg(2)).sha());
      }
      case "exists" -> {
        if (c.argc() < 3) {
          throw new RedisException(Errors.wrongArity("script|exists"));
        }
        c.reply().array(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
          c.reply().integer(engine.cache.contains(c.argString(i).toLowerCase(Locale.ROOT)) ? 1 : 0);
        }
      }
      case "flush" -> {
        if (c.argc() > 3) {
          throw new RedisException(Errors.wrongArity("script|flush"));
        }
        if (c.argc() == 3 && !Args.is(c.arg(2), "sync") && !Args.is(c.arg(2), "async")) {
          throw new RedisException("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
        }
        engine.cache.clear();
        c.reply().ok();
      }
      case "kill" -> {
        arity(c, 2, "script|kill");
        String error = engine.kill(false);
        if (error != null) {
          throw new RedisException(error);
        }
        c.reply().ok();
      }
      case "debug" -> throw new RedisException("ERR SCRIPT DEBUG is not supported by this server");
      case "help" -> help(c, "SCRIPT", new String[] {
          "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
          "DEBUG (YES|SYNC|NO)",
          "    Set the debug mode for subsequent scripts executed.",
          "EXISTS <sha1> [<sha1> ...]",
          "    Return information about the existence of the scripts in the script cache.",
          "FLUSH [ASYNC|SYNC]",
          "    Flush the Lua scripts cache. Very dangerous on replicas.",
          "    When called without the optional mode argument, the behavior is determined by the",
          "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
          "    * ASYNC: Asynchronously flush the scripts cache.",
          "    * SYNC: Synchronously flush the scripts cache.",
          "KILL",
          "    Kill the currently executing Lua script.",
          "LOAD <script>",
          "    Load a script into the scripts cache without executing it.",
          "HELP",
          "    Prints this help."});
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "SCRIPT"));
    }
  }

  static void arity(CommandContext c, int n, String name) {
    if (c.argc() != n) {
      throw new RedisException(Errors.wrongArity(name));
    }
  }

  static void help(CommandContext c, String name, String[] lines) {
    c.reply().array(lines.length);
    for (String l : lines) {
      c.reply().status(l);
    }
  }
}
