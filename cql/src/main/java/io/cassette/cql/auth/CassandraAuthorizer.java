package io.cassette.cql.auth;

import static io.cassette.cql.auth.AuthValues.text;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;

/**
 * Permissions kept in {@code system_auth.role_permissions} (role, resource -> set of
 * permission names) with the reverse index {@code system_auth.resource_role_permissons_index}
 * (Cassandra's spelling), written as Cassandra's CassandraAuthorizer writes them. What a user
 * may do on a resource is the union over the user's roles, cached for
 * {@code permissions_validity}: a GRANT takes effect on a connection once its cached entry
 * expires, as in Cassandra. Thread-safe.
 */
public final class CassandraAuthorizer {
  static final String ROLE_PERMISSIONS = "system_auth.role_permissions";
  static final String INDEX = "system_auth.resource_role_permissons_index";

  private record Key(String user, AuthResource resource) {}

  private final InternalQueries queries;
  private final AuthSettings settings;
  private final CassandraRoleManager roles;
  private final AuthCache<Key, Set<Permission>> cache;

  CassandraAuthorizer(InternalQueries queries, AuthSettings settings, CassandraRoleManager roles) {
    this.queries = queries;
    this.settings = settings;
    this.roles = roles;
    this.cache = new AuthCache<>("permissions", settings.permissionsValidityMillis(), settings.cacheMaxEntries(),
        k -> {
          Set<Permission> out = EnumSet.noneOf(Permission.class);
          for (String r : roles.rolesOf(k.user())) {
            out.addAll(granted(r, k.resource()));
          }
          return out;
        });
  }

  /** What {@code user} (through all its roles) may do on exactly {@code resource} (cached). */
  public Set<Permission> authorize(String user, AuthResource resource) {
    return cache.get(new Key(user, resource));
  }

  /** The permissions granted to {@code role} itself on {@code resource}, as stored now. */
  Set<Permission> granted(String role, AuthResource resource) {
    List<List<ByteBuffer>> rows = queries.execute("SELECT permissions FROM " + ROLE_PERMISSIONS
        + " WHERE role = ? AND resource = ?", settings.readConsistency(), List.of(text(role), text(resource.storedName())));
    Set<Permission> out = EnumSet.noneOf(Permission.class);
    if (!rows.isEmpty()) {
      for (String p : AuthValues.asTextSet(rows.get(0).get(0))) {
        try {
          out.add(Permission.valueOf(p.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException ignored) {
          // a permission this version does not know: it grants nothing here
        }
      }
    }
    return out;
  }

  void grant(Set<Permission> permissions, AuthResource resource, String role) {
    List<String> names = new ArrayList<>();
    permissions.forEach(p -> names.add(p.name()));
    queries.execute("UPDATE " + ROLE_PERMISSIONS + " SET permissions = permissions + ? WHERE role = ? AND resource = ?",
        settings.writeConsistency(), List.of(AuthValues.textSet(names), text(role), text(resource.storedName())));
    queries.execute("INSERT INTO " + INDEX + " (resource, role) VALUES (?, ?)", settings.writeConsistency(),
        List.of(text(resource.storedName()), text(role)));
  }

  void revoke(Set<Permission> permissions, AuthResource resource, String role) {
    List<String> names = new ArrayList<>();
    permissions.forEach(p -> names.add(p.name()));
    queries.execute("UPDATE " + ROLE_PERMISSIONS + " SET permissions = permissions - ? WHERE role = ? AND resource = ?",
        settings.writeConsistency(), List.of(AuthValues.textSet(names), text(role), text(resource.storedName())));
    if (granted(role, resource).isEmpty()) {
      queries.execute("DELETE FROM " + INDEX + " WHERE resource = ? AND role = ?", settings.writeConsistency(),
          List.of(text(resource.storedName()), text(role)));
    }
  }

  /** Everything granted to {@code role} (DROP ROLE). */
  void revokeAllFrom(String role) {
    for (List<ByteBuffer> r : queries.execute("SELECT resource FROM " + ROLE_PERMISSIONS + " WHERE role = ?",
        settings.readConsistency(), List.of(text(role)))) {
      queries.execute("DELETE FROM " + INDEX + " WHERE resource = ? AND role = ?", settings.writeConsistency(),
          List.of(r.get(0), text(role)));
    }
    queries.execute("DELETE FROM " + ROLE_PERMISSIONS + " WHERE role = ?", settings.writeConsistency(),
        List.of(text(role)));
  }

  /** Everything granted on {@code resource} (it was dropped). */
  void revokeAllOn(AuthResource resource) {
    String name = resource.storedName();
    for (List<ByteBuffer> r : queries.execute("SELECT role FROM " + INDEX + " WHERE resource = ?",
        settings.readConsistency(), List.of(text(name)))) {
      queries.execute("DELETE FROM " + ROLE_PERMISSIONS + " WHERE role = ? AND resource = ?",
          settings.writeConsistency(), List.of(r.get(0), text(name)));
    }
    queries.execute("DELETE FROM " + INDEX + " WHERE resource = ?", settings.writeConsistency(), List.of(text(name)));
  }

  /** Everything granted on the tables of a dropped keyspace ({@code data/ks/...}). */
  void revokeAllOnTablesOf(String keyspace) {
    String prefix = AuthResource.keyspace(keyspace).storedName() + "/";
    Set<String> resources = new java.util.TreeSet<>();
    for (List<ByteBuffer> r : queries.execute("SELECT resource FROM " + INDEX, settings.readConsistency(), List.of())) {
      String name = AuthValues.asText(r.get(0));
      if (name.startsWith(prefix)) {
        resources.add(name);
      }
    }
    for (String name : resources) {
      AuthResource resource = AuthResource.fromStoredName(name);
      if (resource != null) {
        revokeAllOn(resource);
      }
    }
  }

  /** One row of LIST PERMISSIONS. */
  public record Grant(String role, AuthResource resource, Permission permission) {}

  /**
   * The grants of {@code roleNames} (all roles when null), limited to {@code resources} when not
   * null, sorted as Cassandra lists them: by role, resource name, permission.
   */
  List<Grant> list(Set<String> roleNames, Set<AuthResource> resources, Set<Permission> permissions) {
    TreeMap<String, List<Grant>> byKey = new TreeMap<>();
    List<List<ByteBuffer>> rows = queries.execute("SELECT role, resource, permissions FROM " + ROLE_PERMISSIONS,
        settings.readConsistency(), List.of());
    for (List<ByteBuffer> r : rows) {
      String role = AuthValues.asText(r.get(0));
      AuthResource resource = AuthResource.fromStoredName(AuthValues.asText(r.get(1)));
      if (resource == null || (roleNames != null && !roleNames.contains(role))
          || (resources != null && !resources.contains(resource))) {
        continue;
      }
      Set<Permission> set = EnumSet.noneOf(Permission.class);
      for (String p : AuthValues.asTextSet(r.get(2))) {
        try {
          set.add(Permission.valueOf(p));
        } catch (IllegalArgumentException ignored) {
          // unknown to this version
        }
      }
      List<Grant> grants = new ArrayList<>();
      for (Permission p : set) {
        if (permissions.contains(p)) {
          grants.add(new Grant(role, resource, p));
        }
      }
      if (!grants.isEmpty()) {
        byKey.put(role + '\0' + resource.storedName(), grants);
      }
    }
    List<Grant> out = new ArrayList<>();
    byKey.values().forEach(out::addAll);
    return out;
  }

  void invalidateAll() {
    cache.invalidateAll();
  }
}
