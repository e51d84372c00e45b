package io.cassette.cql.auth;

import static io.cassette.cql.auth.AuthValues.bool;
import static io.cassette.cql.auth.AuthValues.text;

import io.cassette.cql.Consistency;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Roles kept in {@code system_auth.roles} and {@code system_auth.role_members}, written as
 * Cassandra's CassandraRoleManager writes them (so rows can be copied between the two), read
 * through a cache valid for {@code roles_validity}. Thread-safe.
 */
public final class CassandraRoleManager {
  static final String ROLES = "system_auth.roles";
  static final String ROLE_MEMBERS = "system_auth.role_members";

  private final InternalQueries queries;
  private final AuthSettings settings;
  /** Role name -> its row, or empty when there is no such role. */
  private final AuthCache<String, Optional<Role>> cache;

  CassandraRoleManager(InternalQueries queries, AuthSettings settings) {
    this.queries = queries;
    this.settings = settings;
    this.cache = new AuthCache<>("roles", settings.rolesValidityMillis(), settings.cacheMaxEntries(), this::load);
  }

  /** The role (cached), or empty. */
  public Optional<Role> role(String name) {
    return cache.get(name);
  }

  /** The role as stored now, bypassing the cache (statements that change roles decide on it). */
  public Optional<Role> fresh(String name) {
    return load(name);
  }

  private Optional<Role> load(String name) {
    List<List<ByteBuffer>> rows = queries.execute("SELECT role, is_superuser, can_login, salted_hash, member_of FROM "
        + ROLES + " WHERE role = ?", settings.readConsistency(), List.of(text(name)));
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    List<ByteBuffer> r = rows.get(0);
    return Optional.of(new Role(AuthValues.asText(r.get(0)), AuthValues.asBool(r.get(1)), AuthValues.asBool(r.get(2)),
        AuthValues.asText(r.get(3)), AuthValues.asTextSet(r.get(4))));
  }

  /** Every role name, sorted. */
  public List<String> allRoles() {
    List<List<ByteBuffer>> rows = queries.execute("SELECT role FROM " + ROLES, settings.readConsistency(), List.of());
    TreeSet<String> names = new TreeSet<>();
    for (List<ByteBuffer> r : rows) {
      names.add(AuthValues.asText(r.get(0)));
    }
    return new ArrayList<>(names);
  }

  /** {@code name} and every role granted to it, directly or not (cached rows). */
  public Set<String> rolesOf(String name) {
    Set<String> out = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add(name);
    while (!todo.isEmpty()) {
      String r = todo.poll();
      if (!out.add(r)) {
        continue;
      }
      role(r).ifPresent(role -> todo.addAll(role.memberOf()));
    }
    return out;
  }

  /** True if {@code name} or a role granted to it is a superuser. */
  public boolean isSuper(String name) {
    for (String r : rolesOf(name)) {
      if (role(r).map(Role::superuser).orElse(false)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Creates a role. {@code timestampMicros} other than Long.MIN_VALUE writes with that
   * timestamp (the default superuser is written at 0, as Cassandra does, so any later change
   * wins on every replica).
   */
  void create(String name, boolean superuser, boolean login, String saltedHash, long timestampMicros) {
    String using = timestampMicros == Long.MIN_VALUE ? "" : " USING TIMESTAMP " + timestampMicros;
    if (saltedHash == null) {
      write("INSERT INTO " + ROLES + " (role, is_superuser, can_login) VALUES (?, ?, ?)" + using,
          List.of(text(name), bool(superuser), bool(login)));
    } else {
      write("INSERT INTO " + ROLES + " (role, is_superuser, can_login, salted_hash) VALUES (?, ?, ?, ?)" + using,
          List.of(text(name), bool(superuser), bool(login), text(saltedHash)));
    }
    cache.invalidate(name);
  }

  /** Changes the given fields (null = unchanged). */
  void alter(String name, Boolean superuser, Boolean login, String saltedHash) {
    List<String> sets = new ArrayList<>();
    List<ByteBuffer> values = new ArrayList<>();
    if (superuser != null) {
      sets.add("is_superuser = ?");
      values.add(bool(superuser));
    }
    if (login != null) {
      sets.add("can_login = ?");
      values.add(bool(login));
    }
    if (saltedHash != null) {
      sets.add("salted_hash = ?");
      values.add(text(saltedHash));
    }
    if (sets.isEmpty()) {
      return;
    }
    values.add(text(name));
    write("UPDATE " + ROLES + " SET " + String.join(", ", sets) + " WHERE role = ?", values);
    cache.invalidate(name);
  }

  /** Removes the role, its memberships both ways. */
  void drop(String name) {
    Optional<Role> role = fresh(name);
    // Roles that were granted this one lose it.
    for (List<ByteBuffer> r : queries.execute("SELECT member FROM " + ROLE_MEMBERS + " WHERE role = ?",
        settings.readConsistency(), List.of(text(name)))) {
      String member = AuthValues.asText(r.get(0));
      write("UPDATE " + ROLES + " SET member_of = member_of - ? WHERE role = ?",
          List.of(AuthValues.textSet(List.of(name)), text(member)));
      cache.invalidate(member);
    }
    write("DELETE FROM " + ROLE_MEMBERS + " WHERE role = ?", List.of(text(name)));
    for (String parent : role.map(Role::memberOf).orElse(Set.of())) {
      write("DELETE FROM " + ROLE_MEMBERS + " WHERE role = ? AND member = ?", List.of(text(parent), text(name)));
    }
    write("DELETE FROM " + ROLES + " WHERE role = ?", List.of(text(name)));
    cache.invalidate(name);
  }

  void grant(String role, String grantee) {
    write("UPDATE " + ROLES + " SET member_of = member_of + ? WHERE role = ?",
        List.of(AuthValues.textSet(List.of(role)), text(grantee)));
    write("INSERT INTO " + ROLE_MEMBERS + " (role, member) VALUES (?, ?)", List.of(text(role), text(grantee)));
    cache.invalidate(grantee);
  }

  void revoke(String role, String grantee) {
    write("UPDATE " + ROLES + " SET member_of = member_of - ? WHERE role = ?",
        List.of(AuthValues.textSet(List.of(role)), text(grantee)));
    write("DELETE FROM " + ROLE_MEMBERS + " WHERE role = ? AND member = ?", List.of(text(role), text(grantee)));
    cache.invalidate(grantee);
  }

  /** True if any role row exists (read at QUORUM, as Cassandra checks before creating the default one). */
  boolean anyRole() {
    return !queries.execute("SELECT role FROM " + ROLES + " LIMIT 1", Consistency.QUORUM, List.of()).isEmpty();
  }

  private void write(String cql, List<ByteBuffer> values) {
    queries.execute(cql, settings.writeConsistency(), values);
  }

  void invalidateAll() {
    cache.invalidateAll();
  }
}
