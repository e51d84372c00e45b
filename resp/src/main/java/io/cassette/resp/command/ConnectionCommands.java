package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.LOADING;
import static io.cassette.resp.command.CommandSpec.NO_AUTH;
import static io.cassette.resp.command.CommandSpec.NO_QUEUE;
import static io.cassette.resp.command.CommandSpec.PUBSUB;
import static io.cassette.resp.command.CommandSpec.STALE;

import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Connection commands: AUTH, HELLO, PING, ECHO, QUIT, RESET, SELECT, CLIENT. */
public final class ConnectionCommands {
  static final String VERSION = "7.0.15";

  private ConnectionCommands() {}

  static void register(CommandTable t) {
    t.add("auth", -2, NO_AUTH | NO_QUEUE | LOADING | STALE | FAST, ConnectionCommands::auth);
    t.add("hello", -1, NO_AUTH | NO_QUEUE | LOADING | STALE | FAST, ConnectionCommands::hello);
    t.add("ping", -1, PUBSUB | FAST, ConnectionCommands::ping);
    t.add("echo", 2, FAST, c -> c.reply().bulk(c.arg(1)));
    t.add("quit", -1, NO_AUTH | NO_QUEUE | PUBSUB | LOADING | STALE | FAST, c -> {
      c.reply().ok();
      c.session.closeAfterReply = true;
    });
    t.add("reset", 1, NO_AUTH | NO_QUEUE | PUBSUB | LOADING | STALE | FAST,
        ConnectionCommands::reset);
    t.add("select", 2, LOADING | STALE | FAST, ConnectionCommands::select);
    t.add("client", -2, LOADING | STALE, ConnectionCommands::client);
  }

  /** Opens {@code user} with {@code password} for this client, or logs the failure in ACL LOG. */
  private static boolean checkPassword(CommandContext c, String user, byte[] password) {
    io.cassette.resp.acl.AclUser u = c.server.acl.authenticate(user, password,
        () -> describe(c.server, c.session).stripTrailing());
    if (u == null) {
      return false;
    }
    c.session.user = u;
    return true;
  }

  private static void auth(CommandContext c) {
    if (c.argc() > 3) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (c.argc() == 2 && c.server.acl.defaultUser().nopass()) {
      throw new RedisException("ERR AUTH <password> called without any password configured for "
          + "the default user. Are you sure your configuration is correct?");
    }
    String user = c.argc() == 3 ? c.argString(1) : "default";
    if (!checkPassword(c, user, c.arg(c.argc() - 1))) {
      throw new RedisException(Errors.WRONGPASS);
    }
    authenticated(c.session);
    c.reply().ok();
  }

  private static void authenticated(Session s) {
    if (!s.authenticated) {
      s.authenticated = true;
      s.onAuthenticated.run();
    }
  }

  private static void hello(CommandContext c) {
    int protocol = c.session.protocol();
    int i = 1;
    if (c.argc() >= 2) {
      Long v = Args.parseLongOrNull(c.arg(1));
      if (v == null) {
        throw new RedisException("ERR Protocol version is not an integer or out of range");
      }
      if (v < 2 || v > 3) {
        throw new RedisException("NOPROTO unsupported protocol version");
      }
      protocol = v.intValue();
      i = 2;
    }
    String setName = null;
    for (; i < c.argc(); i++) {
      boolean more = i + 1 < c.argc();
      if (Args.is(c.arg(i), "auth") && i + 2 < c.argc()) {
        if (!checkPassword(c, c.argString(i + 1), c.arg(i + 2))) {
          throw new RedisException(Errors.WRONGPASS);
        }
        authenticated(c.session);
        i += 2;
      } else if (Args.is(c.arg(i), "setname") && more) {
        setName = validName(c.arg(i + 1));
        i++;
      } else {
        throw new RedisException("ERR Syntax error in HELLO option '" + c.argString(i) + "'");
      }
    }
    if (c.server.requiresPassword() && !c.session.authenticated) {
      throw new RedisException("NOAUTH HELLO must be called with the client already "
          + "authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to "
          + "authenticate the client and select the RESP protocol version at the same time");
    }
    if (setName != null) {
      c.session.name = setName;
    }
    c.session.reply.protocol(protocol);
    Reply r = c.reply();
    r.map(7);
    r.bulk("server");
    r.bulk("redis");
    r.bulk("version");
    r.bulk(VERSION);
    r.bulk("proto");
    r.integer(protocol);
    r.bulk("id");
    r.integer(c.session.id);
    r.bulk("mode");
    r.bulk("standalone");
    r.bulk("role");
    r.bulk("master");
    r.bulk("modules");
    r.emptyArray();
  }

  private static void ping(CommandContext c) {
    if (c.argc() > 2) {
      throw new RedisException(Errors.wrongArity("ping"));
    }
    Reply r = c.reply();
    if (c.session.subscriptions() > 0 && c.session.protocol() == 2) {
      r.array(2);
      r.bulk("pong");
      r.bulk(c.argc() == 2 ? c.arg(1) : new byte[0]);
    } else if (c.argc() == 2) {
      r.bulk(c.arg(1));
    } else {
      r.pong();
    }
  }

  private static void reset(CommandContext c) {
    Session s = c.session;
    s.inMulti = false;
    s.multiFailed = false;
    c.server.dropMultiQueue(s);
    c.server.watches.unwatchAll(s);
    c.server.pubsub.removeAll(s);
    c.server.blocking.unblock(s);
    s.db = 0;
    s.name = "";
    s.noEvict = false;
    s.reply.protocol(2);
    s.user = null;
    s.authenticated = !c.server.requiresPassword();
    c.reply().status("RESET");
  }

  private static void select(CommandContext c) {
    long db = Args.parseIntInRange(c.arg(1));
    if (db < 0 || db >= RedisLayout.DATABASES) {
      throw new RedisException(Errors.DB_OUT_OF_RANGE);
    }
    c.session.db = (int) db;
    c.reply().ok();
  }

  /**
   * Longest client name, lib-name or lib-ver (Redis 7.0 has no bound but proto-max-bulk-len):
   * each connection keeps three, and CLIENT LIST / INFO repeat them for every client, so
   * 10,000 clients with 2 MiB names would take 60 GB. Real clients send a few dozen bytes.
   */
  public static final int MAX_NAME_BYTES = 256;

  static String validName(byte[] name) {
    if (name.length > MAX_NAME_BYTES) {
      throw new RedisException("ERR Client names cannot be longer than " + MAX_NAME_BYTES + " bytes on this node.");
    }
    for (byte b : name) {
      if (b < '!' || b > '~') {
        throw new RedisException(
            "ERR Client names cannot contain spaces, newlines or special characters.");
      }
    }
    return Args.str(name);
  }

  private static void client(CommandContext c) {
    String sub = c.argString(1).toLowerCase();
    Reply r = c.reply();
    switch (sub) {
      case "id" -> {
        arity(c, 2, "client|id");
        r.integer(c.session.id);
      }
      case "setname" -> {
        arity(c, 3, "client|setname");
        c.session.name = validName(c.arg(2));
        r.ok();
      }
      case "getname" -> {
        arity(c, 2, "client|getname");
        if (c.session.name.isEmpty()) {
          r.nullBulk();
        } else {
          r.bulk(c.session.name);
        }
      }
      case "setinfo" -> {
        arity(c, 4, "client|setinfo");
        if (Args.is(c.arg(2), "lib-name")) {
          c.session.libName = validName(c.arg(3));
        } else if (Args.is(c.arg(2), "lib-ver")) {
          c.session.libVersion = validName(c.arg(3));
        } else {
          throw new RedisException("ERR Unrecognized option '" + c.argString(2) + "'");
        }
        r.ok();
      }
      case "info" -> {
        arity(c, 2, "client|info");
        r.verbatim(describe(c.server, c.session));
      }
      case "reply" -> {
        arity(c, 3, "client|reply");
        if (Args.is(c.arg(2), "on")) {
          c.session.replyOff = false;
          r.ok();
        } else if (Args.is(c.arg(2), "off")) {
          c.session.replyOff = true;
        } else if (Args.is(c.arg(2), "skip")) {
          if (!c.session.replyOff) {
            c.session.skipThisReply = true;
            c.session.skipNextReply = true;
          }
        } else {
          throw new RedisException(Errors.SYNTAX);
        }
      }
      case "list" -> clientList(c);
      case "kill" -> clientKill(c);
      case "unblock" -> clientUnblock(c);
      case "no-evict" -> {
        arity(c, 3, "client|no-evict");
        if (Args.is(c.arg(2), "on")) {
          c.session.noEvict = true;
        } else if (Args.is(c.arg(2), "off")) {
          c.session.noEvict = false;
        } else {
          throw new RedisException(Errors.SYNTAX);
        }
        r.ok();
      }
      case "help" -> {
        String[] lines = {"CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "ID", "    Return the ID of the current connection.",
            "GETNAME", "    Return the name of the current connection.",
            "SETNAME <name>", "    Assign the name <name> to the current connection.",
            "INFO", "    Return information about the current client connection.",
            "LIST [TYPE (NORMAL|MASTER|REPLICA|PUBSUB)]", "    Return information about client connections.",
            "KILL <ip:port> | KILL ID <id> ...", "    Kill connections.",
            "NO-EVICT (ON|OFF)", "    Protect the current client connection from eviction.",
            "HELP", "    Print this help."};
        r.array(lines.length);
        for (String l : lines) {
          r.status(l);
        }
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "CLIENT"));
    }
  }

  static void arity(CommandContext c, int n, String fullName) {
    if (c.argc() != n) {
      throw new RedisException(Errors.wrongArity(fullName));
    }
  }

  /**
   * CLIENT UNBLOCK id [TIMEOUT|ERROR]: a client blocked on keys (BLPOP, BZPOPMIN, BLMPOP...) is
   * answered as on its timeout, or with Redis's UNBLOCKED error; 1 when it was blocked.
   */
  private static void clientUnblock(CommandContext c) {
    if (c.argc() != 3 && c.argc() != 4) {
      throw new RedisException(Errors.wrongArity("client|unblock"));
    }
    long id = Args.parseLong(c.arg(2));
    boolean error = false;
    if (c.argc() == 4) {
      if (Args.is(c.arg(3), "error")) {
        error = true;
      } else if (!Args.is(c.arg(3), "timeout")) {
        throw new RedisException("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
      }
    }
    io.cassette.resp.session.Session target = c.server.clients.get(id);
    if (target == null || target.blocked == null || target.blocked.keys.isEmpty()) {
      c.reply().integer(0); // not blocked on keys (a command in turns or a ring round is not)
      return;
    }
    c.server.blocking.unblock(target);
    boolean asError = error;
    c.server.deliver(target, r -> {
      if (asError) {
        r.error("UNBLOCKED client unblocked via CLIENT UNBLOCK");
      } else {
        r.nullArray();
      }
    });
    if (c.server.runner != null) {
      c.server.runner.resume(target);
    }
    c.reply().integer(1);
  }

  private static void clientList(CommandContext c) {
    String type = null;
    List<Long> ids = null;
    for (int i = 2; i < c.argc(); i++) {
      if (Args.is(c.arg(i), "type") && i + 1 < c.argc()) {
        type = c.argString(++i).toLowerCase();
        if (!List.of("normal", "pubsub", "master", "replica", "slave").contains(type)) {
          throw new RedisException("ERR Unknown client type '" + c.argString(i) + "'");
        }
      } else if (Args.is(c.arg(i), "id") && i + 1 < c.argc()) {
        ids = new ArrayList<>();
        for (i++; i < c.argc(); i++) {
          Long id = Args.parseLongOrNull(c.arg(i));
          if (id == null || id <= 0) {
            throw new RedisException("ERR Invalid client ID");
          }
          ids.add(id);
        }
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    StringBuilder sb = new StringBuilder();
    List<Session> sessions = new ArrayList<>(c.server.clients.values());
    sessions.sort((a, b) -> Long.compare(a.id, b.id));
    for (Session s : sessions) {
      if (ids != null && !ids.contains(s.id)) {
        continue;
      }
      if (type != null) {
        boolean pubsub = s.subscriptions() > 0;
        if (type.equals("pubsub") != pubsub || type.equals("master") || type.equals("replica")
            || type.equals("slave")) {
          continue;
        }
      }
      sb.append(describe(c.server, s));
    }
    c.reply().verbatim(sb.toString());
  }

  static String addr(SocketAddress a) {
    if (a instanceof InetSocketAddress i) {
      return i.getAddress().getHostAddress() + ":" + i.getPort();
    }
    return a == null ? "" : a.toString() + ":0";
  }

  /** The CLIENT INFO line of {@code s} (also ACL LOG's client-info). */
  public static String describe(ServerContext server, Session s) {
    long now = System.currentTimeMillis();
    String flags = s.blocked != null ? "b" : s.subscriptions() > 0 ? "P" : s.inMulti ? "x" : "N";
    if (s.noEvict) {
      flags += "e";
    }
    return "id=" + s.id + " addr=" + addr(s.channel.remoteAddress()) + " laddr="
        + addr(s.channel.localAddress()) + " fd=8 name=" + s.name + " age="
        + (now - s.createdMillis) / 1000 + " idle=" + (now - s.lastInteractionMillis) / 1000
        + " flags=" + flags + " db=" + s.db + " sub=" + s.channels.size() + " psub="
        + s.patterns.size() + " ssub=0 multi=" + (s.inMulti ? s.multiQueue.size() : -1)
        + " qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0"
        + " tot-mem=0 events=r cmd=" + s.lastCommand + " user="
        + (s.user == null ? "default" : s.user.name) + " redir=-1 resp="
        + s.protocol() + (s.libName.isEmpty() ? "" : " lib-name=" + s.libName)
        + (s.libVersion.isEmpty() ? "" : " lib-ver=" + s.libVersion) + "\n";
  }

  private static void clientKill(CommandContext c) {
    if (c.argc() == 3) {
      String target = c.argString(2);
      for (Session s : c.server.clients.values()) {
        if (addr(s.channel.remoteAddress()).equals(target)) {
          kill(c, s);
          c.reply().ok();
          return;
        }
      }
      throw new RedisException("ERR No such client");
    }
    if (c.argc() % 2 != 0 || c.argc() < 4) {
      throw new RedisException(Errors.SYNTAX);
    }
    Long id = null;
    String addr = null;
    String laddr = null;
    String type = null;
    boolean skipMe = true;
    for (int i = 2; i < c.argc(); i += 2) {
      String opt = c.argString(i).toLowerCase();
      String val = c.argString(i + 1);
      switch (opt) {
        case "id" -> {
          id = Args.parseLongOrNull(c.arg(i + 1));
          if (id == null || id <= 0) {
            throw new RedisException("ERR client-id should be greater than 0");
          }
        }
        case "addr" -> addr = val;
        case "laddr" -> laddr = val;
        case "type" -> type = val.toLowerCase();
        case "user" -> { }
        case "skipme" -> {
          if (val.equalsIgnoreCase("yes")) {
            skipMe = true;
          } else if (val.equalsIgnoreCase("no")) {
            skipMe = false;
          } else {
            throw new RedisException(Errors.SYNTAX);
          }
        }
        default -> throw new RedisException(Errors.SYNTAX);
      }
    }
    int killed = 0;
    for (Session s : new ArrayList<>(c.server.clients.values())) {
      if ((id != null && s.id != id)
          || (addr != null && !addr(s.channel.remoteAddress()).equals(addr))
          || (laddr != null && !addr(s.channel.localAddress()).equals(laddr))
          || (type != null && type.equals("pubsub") != (s.subscriptions() > 0))
          || (skipMe && s == c.session)) {
        continue;
      }
      kill(c, s);
      killed++;
    }
    c.reply().integer(killed);
  }

  private static void kill(CommandContext c, Session s) {
    if (s == c.session) {
      s.closeAfterReply = true;
    } else {
      s.closed = true;
      s.channel.close();
    }
  }
}
