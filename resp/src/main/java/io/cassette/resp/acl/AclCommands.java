package io.cassette.resp.acl;

import static io.cassette.resp.command.CommandSpec.LOADING;
import static io.cassette.resp.command.CommandSpec.STALE;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.session.Session;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ACL command (Redis 7.0): SETUSER, GETUSER, DELUSER, LIST, USERS, WHOAMI, CAT, LOG,
 * GENPASS, SAVE, LOAD, HELP, with Redis's replies and error texts. Each subcommand is one
 * entry of {@link #SUBCOMMANDS}: its argument counts (checked once, in {@link #acl}) and its
 * handler.
 */
public final class AclCommands {
  private static final SecureRandom RANDOM = new SecureRandom();
  static final String NO_ACL_FILE = "ERR This Redis instance is not configured to use an ACL "
      + "file. You may want to specify users via the ACL SETUSER command and then issue a "
      + "CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store "
      + "users in the Redis configuration.";

  private AclCommands() {}

  public static void register(CommandTable t) {
    t.add("acl", -2, LOADING | STALE, AclCommands::acl);
  }

  /** What one ACL subcommand does, once its argument count was checked. */
  private interface Handler {
    void run(CommandContext c, AccessControl acl, Reply r);
  }

  /**
   * One subcommand and the argument counts it takes, the subcommand and "ACL" included
   * ({@code max} {@link Integer#MAX_VALUE}: no limit); outside them Redis's wrong-arity error
   * names it "acl|NAME".
   */
  private record Subcommand(int min, int max, Handler handler) {}

  private static final List<String> HELP = List.of("ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "CAT [<category>]", "    List all commands that belong to <category>, or all command categories",
      "    when no category is specified.",
      "DELUSER <username> [<username> ...]", "    Delete a list of users.",
      "GETUSER <username>", "    Get the user's details.",
      "GENPASS [<bits>]", "    Generate a secure 256-bit user password. The optional `bits` argument can",
      "    be used to specify a different size.",
      "LIST", "    Show users details in config file format.",
      "LOAD", "    Reload users from the ACL file.",
      "LOG [<count> | RESET]", "    Show the ACL log entries.",
      "SAVE", "    Save the current config to the ACL file.",
      "SETUSER <username> <attribute> [<attribute> ...]", "    Create or modify a user with the specified attributes.",
      "USERS", "    List all the registered usernames.",
      "WHOAMI", "    Return the current connection username.",
      "HELP", "    Print this help.");

  private static final int ANY = Integer.MAX_VALUE;
  private static final Map<String, Subcommand> SUBCOMMANDS = Map.ofEntries(
      Map.entry("setuser", new Subcommand(3, ANY, AclCommands::setUser)),
      Map.entry("getuser", new Subcommand(3, 3, AclCommands::getUser)),
      Map.entry("deluser", new Subcommand(3, ANY, AclCommands::delUser)),
      Map.entry("list", new Subcommand(2, 2, (c, acl, r) -> {
        List<String> lines = new ArrayList<>();
        for (AclUser u : acl.users()) {
          lines.add("user " + u.name + " " + u.describe());
        }
        bulks(r, lines);
      })),
      Map.entry("users", new Subcommand(2, 2, (c, acl, r) -> bulks(r, acl.users().stream().map(u -> u.name).toList()))),
      Map.entry("whoami", new Subcommand(2, 2,
          (c, acl, r) -> r.bulk(c.session.user == null ? "default" : c.session.user.name))),
      Map.entry("cat", new Subcommand(2, 3, (c, acl, r) -> cat(c, r))),
      Map.entry("genpass", new Subcommand(2, 3, (c, acl, r) -> genpass(c, r))),
      Map.entry("log", new Subcommand(2, 3, AclCommands::log)),
      Map.entry("save", new Subcommand(2, 2, AclCommands::save)),
      Map.entry("load", new Subcommand(2, 2, AclCommands::load)),
      Map.entry("help", new Subcommand(2, ANY, (c, acl, r) -> {
        r.array(HELP.size());
        for (String l : HELP) {
          r.status(l);
        }
      })));

  private static void acl(CommandContext c) {
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    Subcommand s = SUBCOMMANDS.get(sub);
    if (s == null) {
      throw new RedisException(Errors.unknownSubcommand(c.argString(1), "ACL"));
    }
    if (c.argc() < s.min() || c.argc() > s.max()) {
      throw new RedisException(Errors.wrongArity("acl|" + sub));
    }
    s.handler().run(c, c.server.acl, c.reply());
  }

  /** An array of bulk strings. */
  private static void bulks(Reply r, List<String> values) {
    r.array(values.size());
    for (String v : values) {
      r.bulk(v);
    }
  }

  private static void setUser(CommandContext c, AccessControl acl, Reply r) {
    List<String> rules = new ArrayList<>();
    for (int i = 3; i < c.argc(); i++) {
      rules.add(c.argString(i));
    }
    try {
      acl.setUser(c.argString(2), rules);
    } catch (AccessControl.RuleError e) {
      throw new RedisException("ERR Error in ACL SETUSER modifier '" + e.rule + "': " + e.getMessage());
    }
    r.ok();
  }

  private static void getUser(CommandContext c, AccessControl acl, Reply r) {
    AclUser u = acl.user(c.argString(2));
    if (u == null) {
      r.nullBulk();
      return;
    }
    r.map(6);
    r.bulk("flags");
    bulks(r, u.flags());
    r.bulk("passwords");
    bulks(r, u.passwordHashes());
    r.bulk("commands");
    r.bulk(u.describeCommands());
    r.bulk("keys");
    r.bulk(u.describeKeys());
    r.bulk("channels");
    r.bulk(u.channelPatterns());
    r.bulk("selectors");
    r.emptyArray();
  }

  private static void delUser(CommandContext c, AccessControl acl, Reply r) {
    for (int i = 2; i < c.argc(); i++) {
      if (c.argString(i).equals("default")) {
        throw new RedisException("ERR The 'default' user cannot be removed");
      }
    }
    int deleted = 0;
    for (int i = 2; i < c.argc(); i++) {
      AclUser u = acl.user(c.argString(i));
      if (u != null && acl.deleteUser(u.name)) {
        deleted++;
        disconnect(c, u);
      }
    }
    r.integer(deleted);
  }

  private static void genpass(CommandContext c, Reply r) {
    long bits = 256;
    if (c.argc() == 3) {
      bits = Args.parseLong(c.arg(2));
      if (bits <= 0 || bits > 4096) {
        throw new RedisException("ERR ACL GENPASS argument must be the number of bits for "
            + "the output password, a positive number up to 4096");
      }
    }
    int chars = (int) ((bits + 3) / 4);
    byte[] random = new byte[(chars + 1) / 2];
    RANDOM.nextBytes(random);
    r.bulk(HexFormat.of().formatHex(random).substring(0, chars));
  }

  private static void save(CommandContext c, AccessControl acl, Reply r) {
    if (acl.file() == null) {
      throw new RedisException(NO_ACL_FILE);
    }
    try {
      acl.save();
    } catch (IOException e) {
      throw new RedisException("ERR There was an error trying to save the ACLs. Please check the server logs for more information");
    }
    r.ok();
  }

  private static void load(CommandContext c, AccessControl acl, Reply r) {
    if (acl.file() == null) {
      throw new RedisException(NO_ACL_FILE);
    }
    try {
      acl.load();
    } catch (IOException e) {
      throw new RedisException("ERR " + e.getMessage());
    }
    for (Session s : c.server.clients.values()) {
      if (s.user != null && acl.user(s.user.name) != s.user) {
        s.closed = true;
        s.channel.close();
      }
    }
    r.ok();
  }

  private static void cat(CommandContext c, Reply r) {
    if (c.argc() == 2) {
      bulks(r, AclCategories.CATEGORIES);
      return;
    }
    String category = c.argString(2).toLowerCase(Locale.ROOT);
    if (!AclCategories.CATEGORIES.contains(category)) {
      throw new RedisException("ERR Unknown category '" + c.argString(2) + "'");
    }
    List<String> names = new ArrayList<>();
    AclCategories u = AclCategories.redis70();
    for (String n : u.names()) {
      if (u.categoriesOf(n).contains(category)) {
        names.add(n);
      }
    }
    bulks(r, names);
  }

  private static void log(CommandContext c, AccessControl acl, Reply r) {
    long count = 10;
    if (c.argc() == 3) {
      if (Args.is(c.arg(2), "reset")) {
        acl.log().reset();
        r.ok();
        return;
      }
      count = Args.parseLong(c.arg(2));
      if (count < 0) {
        throw new RedisException(Errors.NOT_INTEGER);
      }
    }
    List<AclLog.Entry> entries = acl.log().latest(count);
    long now = System.currentTimeMillis();
    r.array(entries.size());
    for (AclLog.Entry e : entries) {
      r.map(10);
      r.bulk("count");
      r.integer(e.count);
      r.bulk("reason");
      r.bulk(e.reason);
      r.bulk("context");
      r.bulk(e.context);
      r.bulk("object");
      r.bulk(e.object);
      r.bulk("username");
      r.bulk(e.username);
      r.bulk("age-seconds");
      r.doubleValue((now - e.createdMillis) / 1000.0);
      r.bulk("client-info");
      r.bulk(e.clientInfo);
      r.bulk("entry-id");
      r.integer(e.id);
      r.bulk("timestamp-created");
      r.integer(e.firstMillis);
      r.bulk("timestamp-last-updated");
      r.integer(e.createdMillis);
    }
  }

  /** Redis closes the connections of a deleted user. */
  private static void disconnect(CommandContext c, AclUser u) {
    for (Session s : c.server.clients.values()) {
      if (s.user == u) {
        if (s == c.session) {
          s.closeAfterReply = true;
        } else {
          s.closed = true;
          s.channel.close();
        }
      }
    }
  }
}
