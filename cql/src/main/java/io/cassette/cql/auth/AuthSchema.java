package io.cassette.cql.auth;

import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.SchemaBuilder;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.system.SystemKeyspaces;

/**
 * The tables of {@code system_auth}, column for column as Cassandra 5.0 declares them, so
 * rows can be copied from a Cassandra node ({@code COPY ... TO}/{@code FROM}, or sstables
 * loaded into the same names). They are added to the keyspace through the schema log on
 * first start with authentication on, so a ring creates them once and replicates them with
 * system_auth's replication (SimpleStrategy, RF 1 by default: raise it with ALTER KEYSPACE
 * on a ring, as Cassandra's documentation says).
 */
final class AuthSchema {
  static final String[] TABLES = {
      "CREATE TABLE system_auth.roles (role text PRIMARY KEY, can_login boolean, is_superuser boolean,"
          + " member_of set<text>, salted_hash text) WITH comment = 'role definitions'"
          + " AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.role_members (role text, member text, PRIMARY KEY (role, member))"
          + " WITH comment = 'role memberships lookup table' AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.role_permissions (role text, resource text, permissions set<text>,"
          + " PRIMARY KEY (role, resource)) WITH comment = 'permissions granted to db roles'"
          + " AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.resource_role_permissons_index (resource text, role text,"
          + " PRIMARY KEY (resource, role)) WITH comment = 'index of db roles with permissions granted on a resource'"
          + " AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.network_permissions (role text PRIMARY KEY, dcs frozen<set<text>>)"
          + " WITH comment = 'user network permissions' AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.cidr_permissions (role text PRIMARY KEY, cidr_groups frozen<set<text>>)"
          + " WITH comment = 'user cidr permissions' AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.cidr_groups (cidr_group text PRIMARY KEY,"
          + " cidrs frozen<set<frozen<tuple<inet, smallint>>>>) WITH comment = 'cidr groups to cidrs mapping'"
          + " AND gc_grace_seconds = 7776000",
      "CREATE TABLE system_auth.identity_to_role (identity text PRIMARY KEY, role text)"
          + " WITH comment = 'mtls authorized identities lookup table' AND gc_grace_seconds = 7776000",
  };

  private AuthSchema() {}

  /** Adds the tables that system_auth lacks (none on later starts); one schema change. */
  static void ensureTables(SchemaManager schema) {
    schema.change(keyspaces -> {
      KeyspaceMetadata ks = keyspaces.get(SystemKeyspaces.AUTH);
      boolean changed = false;
      for (String ddl : TABLES) {
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parseStored(ddl);
        if (!ks.tables().containsKey(ct.name().name())) {
          // Cassandra's fixed id for a system table, the same on every node of a ring.
          java.util.UUID id = java.util.UUID.nameUUIDFromBytes((SystemKeyspaces.AUTH + ct.name().name())
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
          ct = (Statement.CreateTable) Parser.parseStored(ddl + " AND id = " + id);
          ks = ks.withTable(SchemaBuilder.table(ct, ks));
          changed = true;
        }
      }
      if (!changed) {
        return null;
      }
      keyspaces.put(SystemKeyspaces.AUTH, ks);
      return keyspaces;
    }, null);
  }
}
