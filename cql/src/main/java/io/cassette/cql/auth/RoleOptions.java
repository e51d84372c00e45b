package io.cassette.cql.auth;

import java.util.Map;

/**
 * The WITH part of CREATE/ALTER ROLE (and USER): each field null when not given.
 *
 * @param password       PASSWORD = '...' (clear text, hashed before it is stored)
 * @param hashedPassword HASHED PASSWORD = '$2a$...' (stored as given, checked to be bcrypt)
 * @param login          LOGIN = bool
 * @param superuser      SUPERUSER = bool
 * @param options        OPTIONS = {...} (CassandraRoleManager refuses them, as Cassandra's)
 * @param datacenters    ACCESS TO DATACENTERS {...} (empty set = ALL DATACENTERS)
 */
public record RoleOptions(String password, String hashedPassword, Boolean login, Boolean superuser,
                          Map<String, String> options, java.util.Set<String> datacenters) {
  public static final RoleOptions NONE = new RoleOptions(null, null, null, null, null, null);

  public boolean isEmpty() {
    return password == null && hashedPassword == null && login == null && superuser == null && options == null
        && datacenters == null;
  }
}
