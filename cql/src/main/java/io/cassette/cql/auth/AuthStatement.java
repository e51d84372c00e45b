package io.cassette.cql.auth;

import java.util.Set;

/**
 * The statements about roles and permissions, as {@link AuthStatementParser} reads them.
 * Role names are already case-normalized (unquoted names lower-cased).
 */
public sealed interface AuthStatement {

  /** CREATE ROLE / CREATE USER ({@code user}: LOGIN defaults to true, as Cassandra's). */
  record CreateRole(String role, boolean ifNotExists, RoleOptions options, boolean user) implements AuthStatement {}

  record AlterRole(String role, boolean ifExists, RoleOptions options, boolean user) implements AuthStatement {}

  record DropRole(String role, boolean ifExists, boolean user) implements AuthStatement {}

  /** LIST ROLES [OF role] [NORECURSIVE], or LIST USERS ({@code users}). */
  record ListRoles(String of, boolean recursive, boolean users) implements AuthStatement {}

  /** GRANT role TO grantee / REVOKE role FROM grantee. */
  record GrantRole(String role, String grantee, boolean revoke) implements AuthStatement {}

  /**
   * GRANT permissions ON resource TO grantee / REVOKE ... FROM.
   *
   * @param all true for ALL [PERMISSIONS]: every permission applicable to the resource
   */
  record GrantPermissions(Set<Permission> permissions, boolean all, AuthResource resource, String grantee,
                          boolean revoke) implements AuthStatement {}

  /** LIST permissions [ON resource] [OF role] [NORECURSIVE]; resource and of may be null. */
  record ListPermissions(Set<Permission> permissions, boolean all, AuthResource resource, String of,
                         boolean recursive) implements AuthStatement {}
}
