package io.cassette.cql.auth;

import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TableMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which permission on which resource each data or schema statement needs, as Cassandra 5.0's
 * statements ask in their {@code authorize}: SELECT on the table to read (and for conditional
 * writes), MODIFY to write or truncate, CREATE on the parent to create, ALTER to alter a table
 * or add or drop its indexes, DROP to drop. USE and DESCRIBE need nothing. Tables of the
 * system keyspaces the drivers read on connect are readable by everyone.
 */
final class StatementPermissions {
  /** Cassandra's READABLE_SYSTEM_RESOURCES (besides all of system_schema and system_virtual_schema). */
  private static final Set<String> READABLE_SYSTEM_TABLES = Set.of("local", "peers", "peers_v2",
      "size_estimates", "table_estimates");

  private StatementPermissions() {}

  /**
   * @param keyspace the client's or request's keyspace, or null
   * @param schema   to find the table an index belongs to
   */
  static List<RequiredPermission> of(Statement s, String keyspace, Schema schema) {
    List<RequiredPermission> out = new ArrayList<>(1);
    add(out, s, keyspace, schema);
    return out;
  }

  private static void add(List<RequiredPermission> out, Statement s, String keyspace, Schema schema) {
    if (s instanceof Statement.Select sel) {
      AuthResource t = table(sel.table(), keyspace);
      if (t != null && !readableByAll(t)) {
        out.add(new RequiredPermission(Permission.SELECT, t));
      }
    } else if (s instanceof Statement.Insert ins) {
      modify(out, ins.table(), keyspace, ins.ifNotExists());
    } else if (s instanceof Statement.Update up) {
      modify(out, up.table(), keyspace, up.ifExists() || !up.conditions().isEmpty());
    } else if (s instanceof Statement.Delete del) {
      modify(out, del.table(), keyspace, del.ifExists() || !del.conditions().isEmpty());
    } else if (s instanceof Statement.Batch b) {
      for (Statement inner : b.statements()) {
        add(out, inner, keyspace, schema);
      }
    } else if (s instanceof Statement.Truncate tr) {
      need(out, Permission.MODIFY, table(tr.table(), keyspace));
    } else if (s instanceof Statement.CreateKeyspace) {
      out.add(new RequiredPermission(Permission.CREATE, AuthResource.ALL_KEYSPACES));
    } else if (s instanceof Statement.AlterKeyspace ak) {
      out.add(new RequiredPermission(Permission.ALTER, AuthResource.keyspace(ak.name())));
    } else if (s instanceof Statement.DropKeyspace dk) {
      out.add(new RequiredPermission(Permission.DROP, AuthResource.keyspace(dk.name())));
    } else if (s instanceof Statement.CreateTable ct) {
      need(out, Permission.CREATE, keyspaceOf(ct.name(), keyspace));
    } else if (s instanceof Statement.AlterTable at) {
      need(out, Permission.ALTER, table(at.name(), keyspace));
    } else if (s instanceof Statement.AlterColumnMask am) {
      need(out, Permission.ALTER, table(am.name(), keyspace));
    } else if (s instanceof Statement.DropTable dt) {
      need(out, Permission.DROP, table(dt.name(), keyspace));
    } else if (s instanceof Statement.CreateIndex ci) {
      need(out, Permission.ALTER, table(ci.table(), keyspace));
    } else if (s instanceof Statement.DropIndex di) {
      need(out, Permission.ALTER, indexTable(di.name(), keyspace, schema));
    } else if (s instanceof Statement.CreateType ct) {
      need(out, Permission.CREATE, keyspaceOf(ct.name(), keyspace));
    } else if (s instanceof Statement.AlterType at) {
      need(out, Permission.ALTER, keyspaceOf(at.name(), keyspace));
    } else if (s instanceof Statement.DropType dt) {
      need(out, Permission.DROP, keyspaceOf(dt.name(), keyspace));
    } else if (s instanceof Statement.CreateFunction cf) {
      need(out, Permission.CREATE, functionsOf(cf.name(), keyspace));
    } else if (s instanceof Statement.CreateAggregate ca) {
      need(out, Permission.CREATE, functionsOf(ca.name(), keyspace));
    } else if (s instanceof Statement.DropFunction df) {
      need(out, Permission.DROP, functionsOf(df.name(), keyspace));
    }
    // USE, DESCRIBE and statements Cassette does not run need no permission. EXECUTE on a
    // function called by a SELECT is not checked yet.
  }

  private static void modify(List<RequiredPermission> out, Statement.QualifiedName name, String keyspace,
                             boolean conditional) {
    AuthResource t = table(name, keyspace);
    need(out, Permission.MODIFY, t);
    if (conditional) {
      need(out, Permission.SELECT, t); // a condition reads the row, as in Cassandra
    }
  }

  private static void need(List<RequiredPermission> out, Permission p, AuthResource r) {
    if (r != null) {
      out.add(new RequiredPermission(p, r));
    }
  }

  static boolean readableByAll(AuthResource table) {
    String ks = table.keyspace();
    return ks != null && (ks.equals("system_schema") || ks.equals("system_virtual_schema")
        || (ks.equals("system") && table.name() != null && READABLE_SYSTEM_TABLES.contains(table.name())));
  }

  /** The table resource, or null when no keyspace is known (compiling has refused that already). */
  private static AuthResource table(Statement.QualifiedName name, String keyspace) {
    String ks = name.keyspace() != null ? name.keyspace() : keyspace;
    return ks == null ? null : AuthResource.table(ks, name.name());
  }

  /** ALL FUNCTIONS IN KEYSPACE ks: where Cassandra checks CREATE (and, here, DROP) of a function. */
  private static AuthResource functionsOf(Statement.QualifiedName name, String keyspace) {
    String ks = name.keyspace() != null ? name.keyspace() : keyspace;
    return ks == null ? null : AuthResource.functionsIn(ks);
  }

  private static AuthResource keyspaceOf(Statement.QualifiedName name, String keyspace) {
    String ks = name.keyspace() != null ? name.keyspace() : keyspace;
    return ks == null ? null : AuthResource.keyspace(ks);
  }

  private static AuthResource indexTable(Statement.QualifiedName index, String keyspace, Schema schema) {
    String ks = index.keyspace() != null ? index.keyspace() : keyspace;
    if (ks == null) {
      return null;
    }
    KeyspaceMetadata k = schema.keyspace(ks);
    if (k != null) {
      for (TableMetadata t : k.tables().values()) {
        if (t.indexes.containsKey(index.name())) {
          return AuthResource.table(ks, t.name);
        }
      }
    }
    return AuthResource.keyspace(ks);
  }
}
