package io.cassette.resp.script;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.util.Glob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * FUNCTION (LOAD, LIST, DELETE, FLUSH, DUMP, RESTORE, STATS, KILL, HELP), FCALL and FCALL_RO,
 * with Redis 7.0's replies and errors.
 */
final class FunctionCommands {
  private FunctionCommands() {}

  static void fcall(CommandContext c, boolean readOnlyCommand) {
    ScriptEngine engine = ScriptCommands.engine(c);
    FunctionLibrary.Function f = engine.functions.function(c.argString(1));
    if (f == null) {
      throw new RedisException("ERR Function not found");
    }
    Long n = Args.parseLongOrNull(c.arg(2));
    if (n == null) {
      throw new RedisException("ERR Bad number of keys provided");
    }
    int numkeys = ScriptCommands.numkeys(c);
    if (readOnlyCommand && !f.noWrites()) {
      throw new RedisException("ERR Can not execute a script with write flag using *_ro command.");
    }
    ScriptRun run = new ScriptRun(c.session, ScriptEngine.scriptClient(c.session), f.name(), true,
        c.args, readOnlyCommand || f.noWrites());
    engine.execute(c, run, engine.functionsLua, f.callback(), ScriptCommands.keys(c, numkeys),
        ScriptCommands.args(c, numkeys));
  }

  static void function(CommandContext c) {
    ScriptEngine engine = ScriptCommands.engine(c);
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    FunctionRegistry reg = engine.functions;
    switch (sub) {
      case "load" -> {
        if (c.argc() < 3) {
          throw wrongArgs(c);
        }
        boolean replace = false;
        for (int i = 2; i < c.argc() - 1; i++) {
          if (Args.is(c.arg(i), "replace")) {
            replace = true;
          } else {
            throw new RedisException("ERR Unknown option given: " + c.argString(i));
          }
        }
        c.reply().bulk(reg.load(c.arg(c.argc() - 1), replace));
      }
      case "delete" -> {
        if (c.argc() != 3) {
          throw wrongArgs(c);
        }
        reg.delete(c.argString(2));
        c.reply().ok();
      }
      case "flush" -> {
        if (c.argc() > 3) {
          throw wrongArgs(c);
        }
        if (c.argc() == 3 && !Args.is(c.arg(2), "sync") && !Args.is(c.arg(2), "async")) {
          throw new RedisException("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
        }
        reg.flush();
        c.reply().ok();
      }
      case "dump" -> {
        if (c.argc() != 2) {
          throw wrongArgs(c);
        }
        c.reply().bulk(reg.dump());
      }
      case "restore" -> {
        if (c.argc() < 3 || c.argc() > 4) {
          throw wrongArgs(c);
        }
        String policy = "append";
        if (c.argc() == 4) {
          policy = c.argString(3).toLowerCase(Locale.ROOT);
          if (!policy.equals("append") && !policy.equals("replace") && !policy.equals("flush")) {
            throw new RedisException("ERR Wrong restore policy given, value should be either "
                + "FLUSH, APPEND or REPLACE.");
          }
        }
        reg.restore(c.arg(2), policy);
        c.reply().ok();
      }
      case "list" -> list(c, reg);
      case "stats" -> {
        if (c.argc() != 2) {
          throw wrongArgs(c);
        }
        stats(c, engine);
      }
      case "kill" -> {
        if (c.argc() != 2) {
          throw wrongArgs(c);
        }
        String error = engine.kill(true);
        if (error != null) {
          throw new RedisException(error);
        }
        c.reply().ok();
      }
      case "help" -> ScriptCommands.help(c, "FUNCTION", new String[] {
          "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
          "LOAD [REPLACE] <FUNCTION CODE>",
          "    Create a new library with the given library name and code.",
          "DELETE <LIBRARY NAME>",
          "    Delete the given library.",
          "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
          "    Return general information on all the libraries:",
          "    * Library name",
          "    * The engine used to run the Library",
          "    * Library description",
          "    * Functions list",
          "    * Library code (if WITHCODE is given)",
          "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
          "STATS",
          "    Return information about the current function running:",
          "    * Function name",
          "    * Command used to run the function",
          "    * Duration in MS that the function is running",
          "    If no function is running, return nil",
          "    In addition, returns a list of available engines.",
          "KILL",
          "    Kill the current running function.",
          "FLUSH [ASYNC|SYNC]",
          "    Delete all the libraries.",
          "    When called without the optional mode argument, the behavior is determined by the",
          "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
          "    * ASYNC: Asynchronously flush the libraries.",
          "    * SYNC: Synchronously flush the libraries.",
          "DUMP",
          "    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
          "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
          "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
          "    control how to handle existing libraries (default APPEND):",
          "    * FLUSH: delete all existing libraries.",
          "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
          "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
          "      libraries with the new libraries (notice that even on this option there is a chance of failure",
          "      in case of functions name collision with another library).",
          "HELP",
          "    Prints this help."});
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "FUNCTION"));
    }
  }

  private static RedisException wrongArgs(CommandContext c) {
    return wrongArgs(c.argString(1));
  }

  private static RedisException wrongArgs(String sub) {
    return new RedisException("ERR unknown subcommand or wrong number of arguments for '" + sub
        + "'. Try FUNCTION HELP.");
  }

  private static void list(CommandContext c, FunctionRegistry reg) {
    boolean withCode = false;
    byte[] pattern = null;
    for (int i = 2; i < c.argc(); i++) {
      if (Args.is(c.arg(i), "withcode") && !withCode) {
        withCode = true;
      } else if (Args.is(c.arg(i), "libraryname") && pattern == null) {
        if (i + 1 >= c.argc()) {
          throw new RedisException("ERR library name argument was not given");
        }
        pattern = c.arg(++i);
      } else {
        throw new RedisException("ERR Unknown argument " + c.argString(i));
      }
    }
    List<FunctionLibrary> libs = new ArrayList<>();
    for (FunctionLibrary l : reg.libraries().values()) {
      if (pattern == null || Glob.matches(pattern, l.name.getBytes(StandardCharsets.UTF_8))) {
        libs.add(l);
      }
    }
    Reply r = c.reply();
    r.array(libs.size());
    for (FunctionLibrary l : libs) {
      r.map(withCode ? 4 : 3);
      r.bulk("library_name");
      r.bulk(l.name);
      r.bulk("engine");
      r.bulk("LUA");
      r.bulk("functions");
      r.array(l.functions.size());
      for (FunctionLibrary.Function f : l.functions.values()) {
        r.map(3);
        r.bulk("name");
        r.bulk(f.name());
        r.bulk("description");
        if (f.description() == null) {
          r.nullBulk();
        } else {
          r.bulk(f.description());
        }
        r.bulk("flags");
        r.set(f.flags().size());
        for (String flag : f.flags()) {
          r.status(flag); // Redis answers flags as status strings
        }
      }
      if (withCode) {
        r.bulk("library_code");
        r.bulk(l.code);
      }
    }
  }

  private static void stats(CommandContext c, ScriptEngine engine) {
    Reply r = c.reply();
    r.map(2);
    r.bulk("running_script");
    ScriptRun run = engine.runningScript();
    if (run == null || !run.function) {
      r.nullBulk();
    } else {
      r.map(3);
      r.bulk("name");
      r.bulk(run.name);
      r.bulk("command");
      r.array(run.command.length);
      for (byte[] a : run.command) {
        r.bulk(a);
      }
      r.bulk("duration_ms");
      r.integer(run.elapsedMillis());
    }
    r.bulk("engines");
    r.map(1);
    r.bulk("LUA");
    r.map(2);
    r.bulk("libraries_count");
    r.integer(engine.functions.libraries().size());
    r.bulk("functions_count");
    r.integer(engine.functions.functionCount());
  }
}
