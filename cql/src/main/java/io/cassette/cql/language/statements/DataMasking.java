package io.cassette.cql.language.statements;

import io.cassette.cql.ClientState;
import io.cassette.cql.language.schema.TableMetadata;

/**
 * Dynamic data masking on this node: whether new masks may be declared
 * ({@code dynamic_data_masking_enabled}, off by default as in Cassandra 5.0; masks already in the
 * schema apply either way, as Cassandra's) and who reads clear values. A role sees a masked
 * column's clear value when it holds UNMASK on the table; a masked column in WHERE needs UNMASK
 * or SELECT_MASKED. Without authorization every client holds both (Cassandra's AllowAllAuthorizer
 * grants every permission of a table), so masks only show to roles of a node with authorization.
 */
public final class DataMasking {
  /** Whether a client holds a permission on a table (UNMASK or SELECT_MASKED). */
  public interface Permissions {
    boolean unmask(ClientState state, TableMetadata table);

    boolean selectMasked(ClientState state, TableMetadata table);
  }

  private static final Permissions ALL = new Permissions() {
    public boolean unmask(ClientState state, TableMetadata table) {
      return true;
    }

    public boolean selectMasked(ClientState state, TableMetadata table) {
      return true;
    }
  };

  private volatile boolean enabled;
  private volatile Permissions permissions = ALL;

  public boolean enabled() {
    return enabled;
  }

  public void enabled(boolean on) {
    this.enabled = on;
  }

  public void permissions(Permissions p) {
    this.permissions = p;
  }

  /** Whether {@code ctx}'s client reads {@code table}'s masked columns in clear. */
  public boolean unmasked(QueryContext ctx, TableMetadata table) {
    if (table.masks.isEmpty() || ctx.state == null) {
      return true;
    }
    Boolean known = ctx.clearValues;
    if (known == null) {
      known = permissions.unmask(ctx.state, table);
      ctx.clearValues = known;
    }
    return known;
  }

  /** Whether {@code ctx}'s client may restrict {@code table}'s masked columns in WHERE. */
  public boolean mayQueryMasked(QueryContext ctx, TableMetadata table) {
    return table.masks.isEmpty() || ctx.state == null || permissions.unmask(ctx.state, table)
        || permissions.selectMasked(ctx.state, table);
  }
}
