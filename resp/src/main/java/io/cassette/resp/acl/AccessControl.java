package io.cassette.resp.acl;

import io.cassette.resp.command.CommandSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis door's users and what each may do (Redis 7.0 ACL): the registry ACL SETUSER,
 * DELUSER and LOAD change, the check every command passes before it runs, AUTH, and the ACL
 * LOG. {@code requirepass} is the default user's password, as in Redis 7.
 *
 * <p>Persistence: with an ACL file set, every change is written to it at once (Redis waits
 * for ACL SAVE; a board that loses power should not lose its users) and it is read at start.
 *
 * <p>Command thread only, except {@link #defaultUserNeedsAuth()} (volatile read).
 */
public final class AccessControl {
  private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);
  public static final String NOPERM_COMMAND = "NOPERM this user has no permissions to run the '%s' command";
  public static final String NOPERM_KEY =
      "NOPERM this user has no permissions to access one of the keys used as arguments";
  public static final String NOPERM_CHANNEL =
      "NOPERM this user has no permissions to access one of the channels used as arguments";

  private final Map<String, AclUser> users = new TreeMap<>();
  private final AclLog log = new AclLog();
  private final AclCategories universe = AclCategories.redis70();
  private volatile Path file;
  private volatile boolean defaultNeedsAuth;

  public AccessControl() {
    users.put("default", AclUser.defaultUser());
  }

  public AclUser defaultUser() {
    return users.get("default");
  }

  public AclUser user(String name) {
    return users.get(name);
  }

  public Collection<AclUser> users() {
    return users.values();
  }

  public AclLog log() {
    return log;
  }

  public Path file() {
    return file;
  }

  /**
   * Uses {@code aclFile}: loads it when it exists (else writes the current users to it on the
   * first change). Call before serving.
   */
  public void useFile(Path aclFile) throws IOException {
    this.file = aclFile;
    if (aclFile != null && Files.exists(aclFile)) {
      load();
    }
  }

  /** ACL LOAD: replaces every user with the file's; the default user is added when absent. */
  public void load() throws IOException {
    Map<String, AclUser> read = AclFile.read(file);
    read.putIfAbsent("default", AclUser.defaultUser());
    // Sessions hold their user object: users that stay keep theirs, changed in place.
    for (Map.Entry<String, AclUser> e : read.entrySet()) {
      AclUser old = users.get(e.getKey());
      if (old != null) {
        old.copyFrom(e.getValue());
        e.setValue(old);
      }
    }
    users.clear();
    users.putAll(read);
    changed();
  }

  /** ACL SAVE (and every change when a file is set). */
  public void save() throws IOException {
    AclFile.write(file, users.values());
  }

  /** requirepass: "resetpass >password", or "nopass" when empty (Redis 7's ACLUpdateDefaultUserPassword). */
  public void requirePass(String password) {
    try {
      if (password == null || password.isEmpty()) {
        defaultUser().apply("nopass");
      } else {
        defaultUser().apply("resetpass");
        defaultUser().apply(">" + password);
      }
    } catch (AclRuleException e) {
      throw new IllegalStateException(e);
    }
    changed();
  }

  /**
   * ACL SETUSER: applies {@code rules} to a copy of the user (a new one if absent), then
   * takes the copy, so a rule in error changes nothing.
   *
   * @throws RuleError naming the first rule that failed and why
   */
  public void setUser(String name, List<String> rules) throws RuleError {
    AclUser existing = users.get(name);
    AclUser next = existing == null ? new AclUser(name) : existing.copy();
    for (String r : rules) {
      try {
        next.apply(r);
      } catch (AclRuleException e) {
        throw new RuleError(r, e.getMessage());
      }
    }
    if (existing == null) {
      users.put(name, next);
    } else {
      existing.copyFrom(next);
    }
    changed();
    persist();
  }

  /** A rule that failed, and Redis's reason. */
  public static final class RuleError extends Exception {
    private static final long serialVersionUID = 1L;
    public final String rule;

    RuleError(String rule, String reason) {
      super(reason, null, false, false);
      this.rule = rule;
    }
  }

  /** ACL DELUSER of one user; false when absent. The caller disconnects its clients. */
  public boolean deleteUser(String name) {
    boolean removed = users.remove(name) != null;
    if (removed) {
      changed();
      persist();
    }
    return removed;
  }

  /** The user {@code name} opened by {@code password}, or null (and an ACL LOG entry). */
  public AclUser authenticate(String name, byte[] password, Supplier<String> clientInfo) {
    AclUser u = users.get(name);
    if (u != null && u.enabled() && u.passwordMatches(password)) {
      return u;
    }
    log.add("auth", "toplevel", "AUTH", name, clientInfo.get());
    return null;
  }

  /** True when a new connection must AUTH first: the default user is off or has a password. */
  public boolean defaultUserNeedsAuth() {
    return defaultNeedsAuth;
  }

  /**
   * Checks a call against {@code user}'s rules; null when allowed, else Redis 7.0's NOPERM
   * text (and an ACL LOG entry).
   *
   * @param inMulti the call is being queued or run by MULTI/EXEC (the log's context)
   */
  public String check(AclUser user, CommandSpec spec, byte[][] args, boolean inMulti,
                      Supplier<String> clientInfo) {
    if (user.unrestricted()) {
      return null;
    }
    String context = inMulti ? "multi" : "toplevel";
    String fullName = universe.fullName(spec.name(), args);
    if (!user.canRun(fullName)) {
      log.add("command", context, fullName, user.name, clientInfo.get());
      return String.format(NOPERM_COMMAND, fullName);
    }
    List<byte[]> streamKeys = user.allKeys() ? null
        : io.cassette.resp.stream.StreamCommands.keysOf(spec.name(), args); // after STREAMS
    if (streamKeys != null) {
      for (byte[] k : streamKeys) {
        if (!user.canAccessKey(k, spec.has(CommandSpec.WRITE))) {
          log.add("key", context, new String(k, java.nio.charset.StandardCharsets.UTF_8),
              user.name, clientInfo.get());
          return NOPERM_KEY;
        }
      }
    }
    if (!user.allKeys() && spec.firstKey() > 0) {
      boolean write = spec.has(CommandSpec.WRITE);
      int last = spec.lastKey() < 0 ? args.length + spec.lastKey() : spec.lastKey();
      for (int i = spec.firstKey(); i <= last && i < args.length; i += Math.max(1, spec.step())) {
        if (!user.canAccessKey(args[i], write)) {
          log.add("key", context, new String(args[i], java.nio.charset.StandardCharsets.UTF_8),
              user.name, clientInfo.get());
          return NOPERM_KEY;
        }
      }
    }
    if (!user.allChannels()) {
      int first = switch (spec.name()) {
        case "publish", "spublish", "subscribe", "ssubscribe", "psubscribe" -> 1;
        default -> 0;
      };
      if (first > 0) {
        int last = spec.name().endsWith("publish") ? 1 : args.length - 1;
        boolean pattern = spec.name().equals("psubscribe");
        for (int i = first; i <= last && i < args.length; i++) {
          if (!user.canAccessChannel(args[i], pattern)) {
            log.add("channel", context, new String(args[i], java.nio.charset.StandardCharsets.UTF_8),
                user.name, clientInfo.get());
            return NOPERM_CHANNEL;
          }
        }
      }
    }
    return null;
  }

  private void changed() {
    AclUser d = users.get("default");
    defaultNeedsAuth = !d.enabled() || !d.nopass();
  }

  private void persist() {
    if (file == null) {
      return;
    }
    try {
      save();
    } catch (IOException e) {
      LOG.warn("cannot write the ACL file {}: {}; users changed in memory only", file, e.toString());
    }
  }
}
