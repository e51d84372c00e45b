package io.cassette.resp.acl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One Redis ACL user with Redis 7.0's rules: on/off, passwords (kept as SHA-256 hex, as Redis
 * keeps them), commands and categories, key patterns (read/write) and channel patterns.
 *
 * <p>Commands are a set of allowed names over {@link AclCategories}' universe, as Redis's bit
 * map is; {@link #describe()} rebuilds the rule text the way Redis 7.0 does (start from
 * {@code +@all} or {@code -@all}, then the best-fitting categories, then single commands), so
 * ACL LIST shows what Redis would.
 *
 * <p>Thread-safety: changed and read on the command thread only. Sessions hold the object;
 * ACL SETUSER changes it in place ({@link #copyFrom}) so they see new rules at once.
 */
public final class AclUser {
  private static final AclCategories UNIVERSE = AclCategories.redis70();
  static final String ADDING_KEYS_AFTER_ALL = "Adding a pattern after the * pattern (or the "
      + "'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start "
      + "with an empty list of patterns";
  static final String ADDING_CHANNELS_AFTER_ALL = "Adding a pattern after the * pattern (or the "
      + "'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to "
      + "start with an empty list of channels";

  /** A key pattern and whether it grants reading, writing or both (~ = both, %R~, %W~). */
  record KeyPattern(String text, byte[] bytes, boolean read, boolean write) {}

  public final String name;
  private boolean enabled;
  private boolean nopass;
  /** null: neither flag shown; true: sanitize-payload; false: skip-sanitize-payload. */
  private Boolean sanitizePayload;
  private final LinkedHashSet<String> passwords = new LinkedHashSet<>();
  /** +@all was applied and not undone by -@all: commands added later are allowed too. */
  private boolean allCommands;
  private final Set<String> allowed = new HashSet<>();
  private boolean allKeys;
  private final List<KeyPattern> keys = new ArrayList<>();
  private boolean allChannels;
  private final List<String> channels = new ArrayList<>();

  /** A new user as ACL SETUSER creates it: off, no password, no commands, keys or channels. */
  public AclUser(String name) {
    this.name = name;
  }

  /** Redis's default user: on, nopass, ~* &* +@all. */
  public static AclUser defaultUser() {
    AclUser u = new AclUser("default");
    try {
      u.applyAll(List.of("on", "nopass", "~*", "&*", "+@all"));
    } catch (AclRuleException e) {
      throw new IllegalStateException(e);
    }
    return u;
  }

  public AclUser copy() {
    AclUser u = new AclUser(name);
    u.copyFrom(this);
    return u;
  }

  /** Takes every rule of {@code other} (ACL SETUSER on an existing user, ACL LOAD). */
  public void copyFrom(AclUser other) {
    enabled = other.enabled;
    nopass = other.nopass;
    sanitizePayload = other.sanitizePayload;
    passwords.clear();
    passwords.addAll(other.passwords);
    allCommands = other.allCommands;
    allowed.clear();
    allowed.addAll(other.allowed);
    allKeys = other.allKeys;
    keys.clear();
    keys.addAll(other.keys);
    allChannels = other.allChannels;
    channels.clear();
    channels.addAll(other.channels);
  }

  public void applyAll(List<String> rules) throws AclRuleException {
    for (String r : rules) {
      apply(r);
    }
  }

  /** Applies one rule; on error nothing of this rule was applied. */
  public void apply(String rule) throws AclRuleException {
    String lower = rule.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "on" -> enabled = true;
      case "off" -> enabled = false;
      case "nopass" -> {
        nopass = true;
        passwords.clear();
      }
      case "resetpass" -> {
        nopass = false;
        passwords.clear();
      }
      case "allkeys", "~*" -> {
        allKeys = true;
        keys.clear();
      }
      case "resetkeys" -> {
        allKeys = false;
        keys.clear();
      }
      case "allchannels", "&*" -> {
        allChannels = true;
        channels.clear();
      }
      case "resetchannels" -> {
        allChannels = false;
        channels.clear();
      }
      case "allcommands", "+@all" -> {
        allCommands = true;
        allowed.addAll(UNIVERSE.names());
      }
      case "nocommands", "-@all" -> {
        allCommands = false;
        allowed.clear();
      }
      case "sanitize-payload" -> sanitizePayload = true;
      case "skip-sanitize-payload" -> sanitizePayload = false;
      case "reset" -> {
        applyAll(List.of("resetpass", "resetkeys", "resetchannels", "off", "-@all"));
        sanitizePayload = true;
      }
      default -> applyPattern(rule, lower);
    }
  }

  private void applyPattern(String rule, String lower) throws AclRuleException {
    char c = rule.isEmpty() ? ' ' : rule.charAt(0);
    switch (c) {
      case '>' -> {
        passwords.add(sha256(rule.substring(1)));
        nopass = false;
      }
      case '<' -> {
        if (!passwords.remove(sha256(rule.substring(1)))) {
          throw new AclRuleException("The password you are trying to remove from the user does not exist");
        }
      }
      case '#' -> {
        String hash = rule.substring(1);
        if (!hash.matches("[0-9a-f]{64}")) {
          throw new AclRuleException("The password hash must be exactly 64 characters and contain "
              + "only lowercase hexadecimal characters");
        }
        passwords.add(hash);
        nopass = false;
      }
      case '!' -> {
        String hash = rule.substring(1);
        if (!hash.matches("[0-9a-f]{64}")) {
          throw new AclRuleException("The password hash must be exactly 64 characters and contain "
              + "only lowercase hexadecimal characters");
        }
        if (!passwords.remove(hash)) {
          throw new AclRuleException("The password you are trying to remove from the user does not exist");
        }
      }
      case '~' -> addKey(rule.substring(1), true, true);
      case '%' -> {
        int tilde = rule.indexOf('~');
        if (tilde < 2) {
          throw new AclRuleException("Syntax error");
        }
        boolean read = false;
        boolean write = false;
        for (char f : rule.substring(1, tilde).toCharArray()) {
          switch (Character.toUpperCase(f)) {
            case 'R' -> read = true;
            case 'W' -> write = true;
            default -> throw new AclRuleException("Syntax error");
          }
        }
        addKey(rule.substring(tilde + 1), read, write);
      }
      case '&' -> {
        if (allChannels) {
          throw new AclRuleException(ADDING_CHANNELS_AFTER_ALL);
        }
        String p = rule.substring(1);
        if (!channels.contains(p)) {
          channels.add(p);
        }
      }
      case '+', '-' -> {
        boolean allow = c == '+';
        String what = lower.substring(1);
        if (what.startsWith("@")) {
          String category = what.substring(1);
          if (!AclCategories.CATEGORIES.contains(category)) {
            throw new AclRuleException("Unknown command or category name in ACL");
          }
          setCategory(category, allow);
        } else if (UNIVERSE.isKnown(what)) {
          setCommand(what, allow);
        } else {
          throw new AclRuleException("Unknown command or category name in ACL");
        }
      }
      default -> throw new AclRuleException("Syntax error");
    }
  }

  private void addKey(String pattern, boolean read, boolean write) throws AclRuleException {
    if (allKeys) {
      throw new AclRuleException(ADDING_KEYS_AFTER_ALL);
    }
    if (read && write && pattern.equals("*")) {
      allKeys = true;
      keys.clear();
      return;
    }
    keys.removeIf(k -> k.text().equals(pattern));
    keys.add(new KeyPattern(pattern, pattern.getBytes(StandardCharsets.UTF_8), read, write));
  }

  /** As Redis's ACLSetSelectorCommandBitsForCategory: a command in it brings its subcommands along. */
  private void setCategory(String category, boolean allow) {
    for (String n : UNIVERSE.names()) {
      if (n.indexOf('|') < 0 && UNIVERSE.categoriesOf(n).contains(category)) {
        setCommand(n, allow);
      }
    }
    for (String n : UNIVERSE.names()) {
      if (n.indexOf('|') > 0 && UNIVERSE.categoriesOf(n).contains(category)) {
        set(n, allow);
      }
    }
  }

  /** A command and all its subcommands (Redis's ACLChangeSelectorPerm). */
  private void setCommand(String fullName, boolean allow) {
    set(fullName, allow);
    for (String sub : UNIVERSE.subcommandsOf(fullName)) {
      set(sub, allow);
    }
  }

  private void set(String n, boolean allow) {
    if (allow) {
      allowed.add(n);
    } else {
      allowed.remove(n);
    }
  }

  // ---- checks (command thread) ----

  public boolean enabled() {
    return enabled;
  }

  public boolean nopass() {
    return nopass;
  }

  /** True when this user may do anything (the default user's usual rules): no checks needed. */
  public boolean unrestricted() {
    return allCommands && allKeys && allChannels && allowed.size() == UNIVERSE.names().size();
  }

  /** Whether {@code password} opens this user (it must also be on). */
  public boolean passwordMatches(byte[] password) {
    return nopass || passwords.contains(sha256(password));
  }

  /** May this user run {@code fullName} ("get", "client|kill")? */
  public boolean canRun(String fullName) {
    return UNIVERSE.isKnown(fullName) ? allowed.contains(fullName) : allCommands;
  }

  public boolean allKeys() {
    return allKeys;
  }

  /** May this user read ({@code write} false) or write {@code key}? */
  public boolean canAccessKey(byte[] key, boolean write) {
    if (allKeys) {
      return true;
    }
    for (KeyPattern p : keys) {
      if ((write ? p.write() : p.read()) && io.cassette.resp.util.Glob.matches(p.bytes(), key)) {
        return true;
      }
    }
    return false;
  }

  public boolean allChannels() {
    return allChannels;
  }

  /** May this user use {@code channel}; a PSUBSCRIBE pattern must equal an allowed pattern. */
  public boolean canAccessChannel(byte[] channel, boolean isPattern) {
    if (allChannels) {
      return true;
    }
    String text = new String(channel, StandardCharsets.UTF_8);
    for (String p : channels) {
      if (isPattern ? p.equals(text)
          : io.cassette.resp.util.Glob.matches(p.getBytes(StandardCharsets.UTF_8), channel)) {
        return true;
      }
    }
    return false;
  }

  // ---- descriptions (ACL LIST, GETUSER, the ACL file) ----

  /** The rules after "user NAME " in ACL LIST and the ACL file, as Redis 7.0 writes them. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (String f : flags()) {
      sb.append(f).append(' ');
    }
    for (String p : passwords) {
      sb.append('#').append(p).append(' ');
    }
    String k = describeKeys();
    if (!k.isEmpty()) {
      sb.append(k).append(' ');
    }
    sb.append(describeChannels()).append(' ');
    sb.append(describeCommands());
    return sb.toString();
  }

  /** GETUSER's flags: on/off, nopass, sanitize-payload / skip-sanitize-payload. */
  public List<String> flags() {
    List<String> f = new ArrayList<>();
    f.add(enabled ? "on" : "off");
    if (nopass) {
      f.add("nopass");
    }
    if (sanitizePayload != null) {
      f.add(sanitizePayload ? "sanitize-payload" : "skip-sanitize-payload");
    }
    return f;
  }

  public List<String> passwordHashes() {
    return List.copyOf(passwords);
  }

  public String describeKeys() {
    if (allKeys) {
      return "~*";
    }
    StringBuilder sb = new StringBuilder();
    for (KeyPattern p : keys) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(p.read() && p.write() ? "~" : p.read() ? "%R~" : "%W~").append(p.text());
    }
    return sb.toString();
  }

  /** ACL LIST's channel part: "&*", or "resetchannels" and the patterns. */
  public String describeChannels() {
    if (allChannels) {
      return "&*";
    }
    StringBuilder sb = new StringBuilder("resetchannels");
    for (String p : channels) {
      sb.append(" &").append(p);
    }
    return sb.toString();
  }

  /** GETUSER's channels: the patterns only. */
  public String channelPatterns() {
    if (allChannels) {
      return "&*";
    }
    StringBuilder sb = new StringBuilder();
    for (String p : channels) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append('&').append(p);
    }
    return sb.toString();
  }

  /**
   * Redis 7.0's ACLDescribeSelectorCommandRules over our set: start from +@all or -@all; then,
   * greedily, the category with the fewest differences that has more in common than not
   * (counted on what the categories taken so far do not explain); then single commands.
   * Single commands come in name order (Redis: its hash table's order).
   */
  public String describeCommands() {
    AclUser fake = new AclUser("");
    StringBuilder sb = new StringBuilder(allCommands ? "+@all" : "-@all");
    if (allCommands) {
      fake.allCommands = true;
      fake.allowed.addAll(UNIVERSE.names());
    }
    boolean additive = !allCommands;
    AclUser temp = new AclUser("");
    temp.allowed.addAll(allowed);
    boolean[] applied = new boolean[AclCategories.CATEGORIES.size()];
    while (true) {
      int best = -1;
      long minDiff = Integer.MAX_VALUE;
      long maxSame = 0;
      for (int j = 0; j < applied.length; j++) {
        if (applied[j]) {
          continue;
        }
        String category = AclCategories.CATEGORIES.get(j);
        long on = 0;
        long off = 0;
        for (String n : UNIVERSE.names()) {
          if (UNIVERSE.categoriesOf(n).contains(category)) {
            if (temp.allowed.contains(n)) {
              on++;
            } else {
              off++;
            }
          }
        }
        long diff = additive ? off : on;
        long same = additive ? on : off;
        if (same > diff && (diff < minDiff || (diff == minDiff && same > maxSame))) {
          best = j;
          minDiff = diff;
          maxSame = same;
        }
      }
      if (best < 0) {
        break;
      }
      String category = AclCategories.CATEGORIES.get(best);
      fake.setCategory(category, additive);
      temp.setCategory(category, !additive);
      sb.append(additive ? " +@" : " -@").append(category);
      applied[best] = true;
    }
    for (String n : UNIVERSE.names()) {
      if (n.indexOf('|') >= 0) {
        continue;
      }
      boolean mine = allowed.contains(n);
      if (mine != fake.allowed.contains(n)) {
        sb.append(mine ? " +" : " -").append(n);
        fake.setCommand(n, mine);
      }
      for (String sub : UNIVERSE.subcommandsOf(n)) {
        boolean m = allowed.contains(sub);
        if (m != fake.allowed.contains(sub)) {
          sb.append(m ? " +" : " -").append(sub);
          fake.set(sub, m);
        }
      }
    }
    return sb.toString();
  }

  static String sha256(String password) {
    return sha256(password.getBytes(StandardCharsets.UTF_8));
  }

  static String sha256(byte[] password) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
