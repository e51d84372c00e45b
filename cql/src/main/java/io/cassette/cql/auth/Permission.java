package io.cassette.cql.auth;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a role may do to a resource, with Cassandra 5.0's names (the strings stored in
 * {@code system_auth.role_permissions.permissions}).
 */
public enum Permission {
  CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE, EXECUTE, UNMASK, SELECT_MASKED;

  /** Every permission: what {@code GRANT ALL} means before it is narrowed to a resource. */
  public static final Set<Permission> ALL = EnumSet.allOf(Permission.class);
}
