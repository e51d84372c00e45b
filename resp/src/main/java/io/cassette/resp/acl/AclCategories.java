package io.cassette.resp.acl;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Redis 7.0's command universe as ACL rules see it: every command and subcommand
 * ({@code client|id}) with its ACL categories, read from {@code acl-categories.txt}, which was
 * taken from a real Redis 7.0.15's COMMAND reply. Rules name Redis's commands even where
 * Cassette lacks one, so an ACL file written for Redis loads here, and ACL LIST describes a
 * user the way Redis does. Immutable; one shared instance.
 */
public final class AclCategories {
  /** Redis's categories in ACL CAT's order (the order ACL LIST tries them in). */
  public static final List<String> CATEGORIES = List.of("keyspace", "read", "write", "set",
      "sortedset", "list", "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub",
      "admin", "fast", "slow", "blocking", "dangerous", "connection", "transaction", "scripting");

  private static final AclCategories INSTANCE = load();

  /** Command or "command|subcommand" → its categories. Sorted by name. */
  private final Map<String, Set<String>> categories;
  /** Top-level command → its subcommands' full names. */
  private final Map<String, List<String>> subcommands;

  private AclCategories(Map<String, Set<String>> categories) {
    this.categories = Collections.unmodifiableMap(categories);
    Map<String, List<String>> subs = new LinkedHashMap<>();
    for (String name : categories.keySet()) {
      int bar = name.indexOf('|');
      if (bar > 0) {
        subs.computeIfAbsent(name.substring(0, bar), k -> new ArrayList<>()).add(name);
      }
    }
    this.subcommands = Collections.unmodifiableMap(subs);
  }

  public static AclCategories redis70() {
    return INSTANCE;
  }

  /** Every command and subcommand, sorted. */
  public Set<String> names() {
    return categories.keySet();
  }

  public boolean isKnown(String fullName) {
    return categories.containsKey(fullName);
  }

  public boolean isTopLevel(String name) {
    return categories.containsKey(name) && name.indexOf('|') < 0;
  }

  public Set<String> categoriesOf(String fullName) {
    return categories.getOrDefault(fullName, Set.of());
  }

  public List<String> subcommandsOf(String command) {
    return subcommands.getOrDefault(command, List.of());
  }

  /** The name whose permission a call needs: "client|id" for CLIENT ID, "get" for GET. */
  public String fullName(String command, byte[][] args) {
    if (args.length >= 2 && subcommands.containsKey(command)) {
      String sub = command + "|" + new String(args[1], StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT);
      if (categories.containsKey(sub)) {
        return sub;
      }
    }
    return command;
  }

  private static AclCategories load() {
    Map<String, Set<String>> map = new TreeMap<>();
    try (InputStream in = AclCategories.class.getResourceAsStream("acl-categories.txt")) {
      if (in == null) {
        throw new IllegalStateException("acl-categories.txt missing from the classpath");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] parts = line.trim().split(" ");
        map.put(parts[0], Set.of(java.util.Arrays.copyOfRange(parts, 1, parts.length)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new AclCategories(map);
  }
}
