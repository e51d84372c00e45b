package io.cassette.cql.auth;

import java.util.EnumSet;
import java.util.Set;

/**
 * Something permissions are granted on, with Cassandra's names: {@code data},
 * {@code data/ks}, {@code data/ks/t}, {@code roles}, {@code roles/r}, {@code functions},
 * {@code functions/ks}, {@code functions/ks/f[args]} (the strings stored in
 * {@code system_auth.role_permissions.resource}). Printed as Cassandra prints them in
 * messages and LIST PERMISSIONS: {@code <table ks.t>}, {@code <all keyspaces>}, ...
 *
 * @param kind     which tree the resource is in
 * @param keyspace the keyspace (data, functions), or null at the root
 * @param name     the table, role or function signature, or null
 */
public record AuthResource(Kind kind, String keyspace, String name) {

  public enum Kind { DATA, ROLES, FUNCTIONS }

  public static final AuthResource ALL_KEYSPACES = new AuthResource(Kind.DATA, null, null);
  public static final AuthResource ALL_ROLES = new AuthResource(Kind.ROLES, null, null);
  public static final AuthResource ALL_FUNCTIONS = new AuthResource(Kind.FUNCTIONS, null, null);

  private static final Set<Permission> KEYSPACE_LEVEL = EnumSet.of(Permission.CREATE, Permission.ALTER,
      Permission.DROP, Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE, Permission.UNMASK,
      Permission.SELECT_MASKED);
  private static final Set<Permission> TABLE_LEVEL = EnumSet.of(Permission.ALTER, Permission.DROP,
      Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE, Permission.UNMASK, Permission.SELECT_MASKED);
  private static final Set<Permission> ROLES_ROOT = EnumSet.of(Permission.CREATE, Permission.ALTER,
      Permission.DROP, Permission.AUTHORIZE, Permission.DESCRIBE);
  private static final Set<Permission> ROLE_LEVEL = EnumSet.of(Permission.ALTER, Permission.DROP,
      Permission.AUTHORIZE, Permission.DESCRIBE);
  private static final Set<Permission> FUNCTION_COLLECTION = EnumSet.of(Permission.CREATE, Permission.ALTER,
      Permission.DROP, Permission.AUTHORIZE, Permission.EXECUTE);
  private static final Set<Permission> FUNCTION_LEVEL = EnumSet.of(Permission.ALTER, Permission.DROP,
      Permission.AUTHORIZE, Permission.EXECUTE);

  public static AuthResource keyspace(String keyspace) {
    return new AuthResource(Kind.DATA, keyspace, null);
  }

  public static AuthResource table(String keyspace, String table) {
    return new AuthResource(Kind.DATA, keyspace, table);
  }

  public static AuthResource role(String role) {
    return new AuthResource(Kind.ROLES, null, role);
  }

  public static AuthResource functionsIn(String keyspace) {
    return new AuthResource(Kind.FUNCTIONS, keyspace, null);
  }

  public static AuthResource function(String keyspace, String signature) {
    return new AuthResource(Kind.FUNCTIONS, keyspace, signature);
  }

  /** The stored name, e.g. {@code data/ks/t}. */
  public String storedName() {
    return switch (kind) {
      case DATA -> keyspace == null ? "data" : name == null ? "data/" + keyspace : "data/" + keyspace + "/" + name;
      case ROLES -> name == null ? "roles" : "roles/" + name;
      case FUNCTIONS -> keyspace == null ? "functions"
          : name == null ? "functions/" + keyspace : "functions/" + keyspace + "/" + name;
    };
  }

  /** Parses a stored name; null if it is not one Cassette knows (mbeans, unknown kinds). */
  public static AuthResource fromStoredName(String stored) {
    String[] p = stored.split("/", 3);
    return switch (p[0]) {
      case "data" -> p.length == 1 ? ALL_KEYSPACES : p.length == 2 ? keyspace(p[1]) : table(p[1], p[2]);
      case "roles" -> p.length == 1 ? ALL_ROLES : role(stored.substring("roles/".length()));
      case "functions" -> p.length == 1 ? ALL_FUNCTIONS : p.length == 2 ? functionsIn(p[1]) : function(p[1], p[2]);
      default -> null;
    };
  }

  /** The enclosing resource, or null at a root. */
  public AuthResource parent() {
    return switch (kind) {
      case DATA -> keyspace == null ? null : name == null ? ALL_KEYSPACES : keyspace(keyspace);
      case ROLES -> name == null ? null : ALL_ROLES;
      case FUNCTIONS -> keyspace == null ? null : name == null ? ALL_FUNCTIONS : functionsIn(keyspace);
    };
  }

  /** The permissions GRANT accepts on this resource (what ALL PERMISSIONS means here). */
  public Set<Permission> applicablePermissions() {
    return switch (kind) {
      case DATA -> name == null ? KEYSPACE_LEVEL : TABLE_LEVEL;
      case ROLES -> name == null ? ROLES_ROOT : ROLE_LEVEL;
      case FUNCTIONS -> name == null ? FUNCTION_COLLECTION : FUNCTION_LEVEL;
    };
  }

  /** Cassandra's class name for this kind, as its messages name it. */
  public String typeName() {
    return switch (kind) {
      case DATA -> "DataResource";
      case ROLES -> "RoleResource";
      case FUNCTIONS -> "FunctionResource";
    };
  }

  /** As Cassandra prints it: {@code <table ks.t>}, {@code <all roles>}, ... */
  @Override
  public String toString() {
    return switch (kind) {
      case DATA -> keyspace == null ? "<all keyspaces>"
          : name == null ? "<keyspace " + keyspace + ">" : "<table " + keyspace + "." + name + ">";
      case ROLES -> name == null ? "<all roles>" : "<role " + name + ">";
      case FUNCTIONS -> keyspace == null ? "<all functions>"
          : name == null ? "<all functions in " + keyspace + ">" : "<function " + keyspace + "." + name + ">";
    };
  }
}
