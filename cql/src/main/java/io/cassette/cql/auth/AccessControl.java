package io.cassette.cql.auth;

import io.cassette.cql.ClientState;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlException;
import io.cassette.cql.CqlType;
import io.cassette.cql.Result;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.RingView;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.transport.AllowAllAuthenticator;
import io.cassette.cql.transport.Authenticator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may do what, for the CQL language: the authenticator the transport asks (AllowAll or
 * Password), the permission check before each statement runs (CassandraAuthorizer or
 * AllowAll), the role and permission statements, and the grants Cassandra gives the creator of
 * a keyspace, table or role. Messages and codes are Cassandra 5.0's. Thread-safe.
 */
public final class AccessControl {
  private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);
  public static final String DEFAULT_SUPERUSER = "cassandra";
  static final String DEFAULT_SUPERUSER_PASSWORD = "cassandra";
  /** Between attempts at creating system_auth and the default role when the ring is not ready. */
  private static final long SETUP_RETRY_SECONDS = 10;

  private final AuthSettings settings;
  private final SchemaManager schema;
  private final CassandraRoleManager roles;
  private final CassandraAuthorizer authorizer;
  private final CassandraNetworkAuthorizer network;
  private final Authenticator authenticator;
  /** This node's datacenter and the ring's (ACCESS TO DATACENTERS). */
  private final NodeInfo node;
  private volatile boolean ready;

  public AccessControl(AuthSettings settings, SchemaManager schema, InternalQueries queries, NodeInfo node) {
    this.settings = settings;
    this.schema = schema;
    this.node = node;
    this.roles = new CassandraRoleManager(queries, settings);
    this.authorizer = new CassandraAuthorizer(queries, settings, roles);
    this.network = new CassandraNetworkAuthorizer(queries, settings);
    this.authenticator = settings.requiresPasswords() ? new PasswordAuthenticator(roles, settings)
        : AllowAllAuthenticator.INSTANCE;
  }

  public AuthSettings settings() {
    return settings;
  }

  /** What the CQL transport asks at STARTUP. */
  public Authenticator authenticator() {
    return authenticator;
  }

  /** True when the node keeps roles (a password authenticator or a real authorizer is on). */
  public boolean enabled() {
    return settings.requiresPasswords() || settings.checksPermissions();
  }

  /**
   * Creates system_auth's tables and the default superuser when they are missing (first start).
   * When the ring cannot take the writes yet, retries in the background every 10 s.
   */
  public void setup() {
    if (!enabled()) {
      return;
    }
    try {
      setupOnce();
    } catch (RuntimeException e) {
      LOG.warn("Cannot set up system_auth yet ({}); retrying every {} s", e.getMessage(), SETUP_RETRY_SECONDS);
      ScheduledExecutorService retry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cassette-auth-setup");
        t.setDaemon(true);
        return t;
      });
      retry.scheduleWithFixedDelay(() -> {
        try {
          setupOnce();
          retry.shutdown();
        } catch (RuntimeException again) {
          LOG.debug("system_auth setup failed again", again);
        }
      }, SETUP_RETRY_SECONDS, SETUP_RETRY_SECONDS, TimeUnit.SECONDS);
    }
  }

  private void setupOnce() {
    AuthSchema.ensureTables(schema);
    if (!roles.anyRole()) {
      String initial = settings.initialSuperuserPassword();
      boolean fromConfig = initial != null && !initial.isEmpty();
      String password = fromConfig ? initial : DEFAULT_SUPERUSER_PASSWORD;
      // Timestamp 0 as Cassandra: any later ALTER ROLE wins on every replica.
      roles.create(DEFAULT_SUPERUSER, true, true, PasswordHashes.hash(password, settings.bcryptLog2Rounds()), 0);
      LOG.info("Created default superuser role '{}'", DEFAULT_SUPERUSER);
      if (!fromConfig) {
        LOG.warn("The default superuser role '{}' has the well-known password '{}'. Change it now"
            + " (ALTER ROLE {} WITH PASSWORD = '...'), or set auth_initial_superuser_password"
            + " (environment CASSETTE_AUTH_INITIAL_SUPERUSER_PASSWORD) before the first start",
            DEFAULT_SUPERUSER, DEFAULT_SUPERUSER_PASSWORD, DEFAULT_SUPERUSER);
      }
    }
    ready = true;
  }

  /** Whether system_auth and the default role are set up here (role statements are refused before). */
  public boolean isReady() {
    return ready;
  }

  // ------------------------------------------------------------------ checks before statements

  /**
   * Refuses {@code s} with UNAUTHORIZED unless the client's user may run it: its role may use
   * this datacenter (CassandraNetworkAuthorizer) and holds the statement's permissions
   * (CassandraAuthorizer). No-op for a client with no user (internal queries). {@code s} null:
   * the datacenter only (a prepared role statement, which checks its own permissions).
   */
  public void check(ClientState state, Statement s, String keyspace) {
    checkDatacenter(state);
    if (s == null || !settings.checksPermissions() || state.user() == null) {
      return;
    }
    List<RequiredPermission> needed = StatementPermissions.of(s, keyspace, schema.current());
    if (needed.isEmpty()) {
      return;
    }
    String user = state.user();
    if (roles.isSuper(user)) {
      return;
    }
    for (RequiredPermission p : needed) {
      ensure(user, p.permission(), p.resource());
    }
  }

  /**
   * Cassandra's ClientState.validateLogin with CassandraNetworkAuthorizer: a role limited to
   * other datacenters logs in (AUTH_SUCCESS, PREPARE) and then every statement is refused.
   * Superusers are never limited; only the login role's own limit counts.
   */
  private void checkDatacenter(ClientState state) {
    String user = state.user();
    if (!settings.checksDatacenters() || user == null || !ready) {
      return;
    }
    Set<String> dcs = network.datacenters(user);
    if (!dcs.isEmpty() && !dcs.contains(node.dataCenter()) && !roles.isSuper(user)) {
      throw Errors.unauthorized("You do not have access to this datacenter (" + node.dataCenter() + ")");
    }
  }

  /** The datacenters of the ring as this node knows it (Cassandra's Datacenters.getValidDatacenters). */
  private Set<String> validDatacenters() {
    Set<String> dcs = new HashSet<>();
    dcs.add(node.dataCenter());
    for (RingView.Peer p : node.ring().peers()) {
      dcs.add(p.dataCenter());
    }
    return dcs;
  }

  /** ACCESS TO DATACENTERS naming only datacenters of the ring, checked as Cassandra's DCPermissions. */
  private void validateDatacenters(RoleOptions o) {
    if (o.datacenters() == null || o.datacenters().isEmpty()) {
      return;
    }
    Set<String> subset = new HashSet<>(o.datacenters()); // printed in HashSet order, as Cassandra's message
    if (!validDatacenters().containsAll(subset)) {
      throw Errors.invalid("Invalid value(s) for DATACENTERS '" + subset + "',All values must be valid datacenters");
    }
  }

  /** The datacenters column of LIST ROLES / LIST USERS, as Cassandra 5.0 prints it. */
  private String datacentersOf(Role r) {
    if (!r.canLogin()) {
      return "n/a";
    }
    if (!settings.checksDatacenters() || roles.isSuper(r.name())) {
      return "ALL";
    }
    Set<String> dcs = network.datacenters(r.name());
    return dcs.isEmpty() ? "ALL" : String.join(", ", dcs);
  }

  /** UNAUTHORIZED unless {@code user} holds {@code p} on {@code resource} or one of its parents. */
  private void ensure(String user, Permission p, AuthResource resource) {
    if (!hasPermission(user, p, resource)) {
      throw Errors.unauthorized("User " + user + " has no " + p + " permission on " + resource
          + " or any of its parents");
    }
  }

  private boolean hasPermission(String user, Permission p, AuthResource resource) {
    if (!settings.checksPermissions() || roles.isSuper(user)) {
      return true;
    }
    for (AuthResource r = resource; r != null; r = r.parent()) {
      if (authorizer.authorize(user, r).contains(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * After a schema statement ran: the creator of a keyspace or table gets every permission on
   * it, and what was granted on a dropped keyspace or table is revoked, as Cassandra does.
   */
  public void afterSchemaChange(ClientState state, Result result) {
    if (!settings.checksPermissions() || !ready || !(result instanceof Result.SchemaChange c)) {
      return;
    }
    String user = state.user();
    switch (c.change() + " " + c.target()) {
      case "CREATED KEYSPACE" -> {
        if (user != null) {
          grantCreator(user, AuthResource.keyspace(c.keyspace()));
          grantCreator(user, AuthResource.functionsIn(c.keyspace()));
        }
      }
      case "CREATED TABLE" -> {
        if (user != null) {
          grantCreator(user, AuthResource.table(c.keyspace(), c.name()));
        }
      }
      case "DROPPED KEYSPACE" -> {
        authorizer.revokeAllOn(AuthResource.keyspace(c.keyspace()));
        authorizer.revokeAllOnTablesOf(c.keyspace());
        authorizer.revokeAllOn(AuthResource.functionsIn(c.keyspace()));
      }
      case "DROPPED TABLE" -> authorizer.revokeAllOn(AuthResource.table(c.keyspace(), c.name()));
      default -> { }
    }
  }

  private void grantCreator(String user, AuthResource resource) {
    authorizer.grant(resource.applicablePermissions(), resource, user);
  }

  // ------------------------------------------------------------------ role and permission statements

  /** Runs a role or permission statement for the client. */
  public Result execute(AuthStatement s, ClientState state, String keyspace) {
    String user = state.user();
    if (user == null) {
      throw Errors.unauthorized("You have to be logged in and not anonymous to perform this request");
    }
    if (!ready) {
      throw Errors.invalid("system_auth is not set up yet on this node; retry in a few seconds");
    }
    checkDatacenter(state);
    if (s instanceof AuthStatement.CreateRole c) {
      return createRole(c, user);
    }
    if (s instanceof AuthStatement.AlterRole a) {
      return alterRole(a, user);
    }
    if (s instanceof AuthStatement.DropRole d) {
      return dropRole(d, user);
    }
    if (s instanceof AuthStatement.GrantRole g) {
      return grantRole(g, user);
    }
    if (s instanceof AuthStatement.ListRoles l) {
      return listRoles(l, user);
    }
    if (s instanceof AuthStatement.GrantPermissions g) {
      return grantPermissions(g, user, keyspace);
    }
    if (s instanceof AuthStatement.ListPermissions l) {
      return listPermissions(l, user, keyspace);
    }
    throw new IllegalStateException("unknown auth statement " + s);
  }

  private void checkRolePermission(String user, Permission p, AuthResource resource) {
    if (!hasPermission(user, p, resource)) {
      throw Errors.unauthorized("User " + user + " does not have sufficient privileges to perform the requested operation");
    }
  }

  private void validateOptions(RoleOptions o) {
    if (o.options() != null) {
      throw Errors.invalid("org.apache.cassandra.auth.CassandraRoleManager doesn't support OPTIONS");
    }
    if ((o.password() != null || o.hashedPassword() != null) && !settings.requiresPasswords()) {
      throw Errors.invalid("org.apache.cassandra.auth.CassandraRoleManager doesn't support PASSWORD");
    }
    if (o.password() != null && o.hashedPassword() != null) {
      throw Errors.syntax("Options 'password' and 'hashed password' are mutually exclusive");
    }
    if (o.hashedPassword() != null && !PasswordHashes.isValid(o.hashedPassword())) {
      throw Errors.invalid("Invalid hashed password value. Please use jBcrypt.");
    }
  }

  private String hashOf(RoleOptions o) {
    if (o.hashedPassword() != null) {
      return o.hashedPassword();
    }
    return o.password() == null ? null : PasswordHashes.hash(o.password(), settings.bcryptLog2Rounds());
  }

  private Result createRole(AuthStatement.CreateRole c, String user) {
    checkRolePermission(user, Permission.CREATE, AuthResource.ALL_ROLES);
    RoleOptions o = c.options();
    if (Boolean.TRUE.equals(o.superuser()) && !roles.isSuper(user)) {
      throw Errors.unauthorized("Only superusers can create a role with superuser status");
    }
    if (c.role().isEmpty()) {
      throw Errors.invalid("Role name can't be an empty string");
    }
    validateOptions(o);
    validateDatacenters(o);
    if (roles.fresh(c.role()).isPresent()) {
      if (c.ifNotExists()) {
        return Result.Void.INSTANCE;
      }
      throw Errors.invalid(c.role() + " already exists");
    }
    boolean login = o.login() != null ? o.login() : c.user();
    roles.create(c.role(), Boolean.TRUE.equals(o.superuser()), login, hashOf(o), Long.MIN_VALUE);
    if (settings.checksDatacenters()) { // AllowAllNetworkAuthorizer ignores the clause on CREATE, as Cassandra's
      network.set(c.role(), o.datacenters() == null ? Set.of() : o.datacenters());
    }
    if (settings.checksPermissions()) {
      grantCreator(user, AuthResource.role(c.role()));
    }
    return Result.Void.INSTANCE;
  }

  private Result alterRole(AuthStatement.AlterRole a, String user) {
    RoleOptions o = a.options();
    if (o.isEmpty()) {
      throw Errors.invalid("ALTER [ROLE|USER] can't be empty");
    }
    validateOptions(o);
    validateDatacenters(o);
    boolean isSuper = roles.isSuper(user);
    if (o.superuser() != null && roles.rolesOf(user).contains(a.role())) {
      throw Errors.unauthorized("You aren't allowed to alter your own superuser status or that of a role granted to you");
    }
    if (o.superuser() != null && !isSuper) {
      throw Errors.unauthorized("Only superusers are allowed to alter superuser status");
    }
    if (!isSuper) {
      if (user.equals(a.role())) {
        if (o.login() != null) {
          throw Errors.unauthorized("You aren't allowed to alter LOGIN");
        }
        if (o.datacenters() != null) {
          throw Errors.unauthorized("You aren't allowed to alter ACCESS TO DATACENTERS");
        }
      } else {
        checkRolePermission(user, Permission.ALTER, AuthResource.role(a.role()));
      }
    }
    if (roles.fresh(a.role()).isEmpty()) {
      if (a.ifExists()) {
        return Result.Void.INSTANCE;
      }
      throw Errors.invalid("Role " + a.role() + " doesn't exist");
    }
    roles.alter(a.role(), o.superuser(), o.login(), hashOf(o));
    if (o.datacenters() != null) {
      if (!settings.checksDatacenters()) {
        throw Errors.invalid("ACCESS TO DATACENTERS operations not supported by AllowAllNetworkAuthorizer");
      }
      network.set(a.role(), o.datacenters());
    }
    return Result.Void.INSTANCE;
  }

  private Result dropRole(AuthStatement.DropRole d, String user) {
    checkRolePermission(user, Permission.DROP, AuthResource.role(d.role()));
    Optional<Role> role = roles.fresh(d.role());
    if (role.isPresent() && role.get().superuser() && !roles.isSuper(user)) {
      throw Errors.unauthorized("Only superusers can drop a role with superuser status");
    }
    if (role.isEmpty()) {
      if (d.ifExists()) {
        return Result.Void.INSTANCE;
      }
      throw Errors.invalid(d.role() + " doesn't exist");
    }
    if (user.equals(d.role())) {
      throw Errors.invalid("Cannot DROP primary role for current login");
    }
    roles.drop(d.role());
    if (settings.checksDatacenters()) {
      network.drop(d.role());
    }
    authorizer.revokeAllFrom(d.role());
    authorizer.revokeAllOn(AuthResource.role(d.role()));
    return Result.Void.INSTANCE;
  }

  private Result grantRole(AuthStatement.GrantRole g, String user) {
    checkRolePermission(user, Permission.AUTHORIZE, AuthResource.role(g.role()));
    for (String r : new String[] {g.role(), g.grantee()}) {
      if (roles.fresh(r).isEmpty()) {
        throw Errors.invalid(r + " doesn't exist");
      }
    }
    Set<String> granteeRoles = roles.fresh(g.grantee()).map(Role::memberOf).orElse(Set.of());
    if (g.revoke()) {
      if (!granteeRoles.contains(g.role())) {
        throw Errors.invalid(g.grantee() + " is not a member of " + g.role());
      }
      roles.revoke(g.role(), g.grantee());
      return Result.Void.INSTANCE;
    }
    if (granteeRoles.contains(g.role())) {
      throw Errors.invalid(g.grantee() + " is a member of " + g.role());
    }
    if (freshRolesOf(g.role()).contains(g.grantee())) {
      throw Errors.invalid(g.role() + " is a member of " + g.grantee());
    }
    roles.grant(g.role(), g.grantee());
    return Result.Void.INSTANCE;
  }

  /** {@code name} and every role granted to it, read now (cycle checks must not trust the cache). */
  private Set<String> freshRolesOf(String name) {
    Set<String> out = new LinkedHashSet<>();
    List<String> todo = new ArrayList<>(List.of(name));
    while (!todo.isEmpty()) {
      String r = todo.remove(todo.size() - 1);
      if (out.add(r)) {
        roles.fresh(r).ifPresent(role -> todo.addAll(role.memberOf()));
      }
    }
    return out;
  }

  private static final String AUTH_KS = "system_auth";
  private static final CqlType TEXT = new CqlType.NativeType(CqlType.Native.TEXT);
  private static final CqlType BOOLEAN = new CqlType.NativeType(CqlType.Native.BOOLEAN);
  private static final CqlType OPTIONS = new CqlType.MapType(TEXT, TEXT, false);
  private static final List<ColumnSpec> ROLE_COLUMNS = List.of(new ColumnSpec(AUTH_KS, "roles", "role", TEXT),
      new ColumnSpec(AUTH_KS, "roles", "super", BOOLEAN), new ColumnSpec(AUTH_KS, "roles", "login", BOOLEAN),
      new ColumnSpec(AUTH_KS, "roles", "options", OPTIONS), new ColumnSpec(AUTH_KS, "roles", "datacenters", TEXT));
  private static final List<ColumnSpec> USER_COLUMNS = List.of(new ColumnSpec(AUTH_KS, "users", "name", TEXT),
      new ColumnSpec(AUTH_KS, "users", "super", BOOLEAN), new ColumnSpec(AUTH_KS, "users", "datacenters", TEXT));
  private static final List<ColumnSpec> PERMISSION_COLUMNS = List.of(
      new ColumnSpec(AUTH_KS, "permissions", "role", TEXT), new ColumnSpec(AUTH_KS, "permissions", "username", TEXT),
      new ColumnSpec(AUTH_KS, "permissions", "resource", TEXT),
      new ColumnSpec(AUTH_KS, "permissions", "permission", TEXT));
  /** An empty map<text, text>: [int 0]. */
  private static final byte[] EMPTY_MAP = new byte[4];

  private Result listRoles(AuthStatement.ListRoles l, String user) {
    boolean mayDescribe = hasPermission(user, Permission.DESCRIBE, AuthResource.ALL_ROLES);
    Set<String> names;
    if (l.of() != null) {
      if (roles.fresh(l.of()).isEmpty()) {
        throw Errors.invalid(AuthResource.role(l.of()) + " doesn't exist");
      }
      if (!mayDescribe && !roles.rolesOf(user).contains(l.of())) {
        throw Errors.unauthorized("You are not authorized to view roles granted to " + l.of());
      }
      if (l.recursive()) {
        names = new TreeSet<>(freshRolesOf(l.of()));
      } else {
        names = new TreeSet<>(roles.fresh(l.of()).map(Role::memberOf).orElse(Set.of()));
        names.add(l.of());
      }
    } else if (mayDescribe) {
      names = new TreeSet<>(roles.allRoles());
    } else {
      names = new TreeSet<>(freshRolesOf(user));
    }
    List<List<ByteBuffer>> rows = new ArrayList<>();
    for (String name : names) {
      Optional<Role> r = roles.fresh(name);
      if (r.isEmpty() || (l.users() && !r.get().canLogin())) {
        continue;
      }
      List<ByteBuffer> row = new ArrayList<>();
      row.add(AuthValues.text(name));
      row.add(AuthValues.bool(r.get().superuser()));
      if (!l.users()) {
        row.add(AuthValues.bool(r.get().canLogin()));
        row.add(ByteBuffer.wrap(EMPTY_MAP));
      }
      row.add(AuthValues.text(datacentersOf(r.get())));
      rows.add(row);
    }
    return new Result.Rows(l.users() ? USER_COLUMNS : ROLE_COLUMNS, rows, null);
  }

  /** A table named without keyspace is the client's keyspace's; the resource must exist. */
  private AuthResource resolve(AuthResource r, String keyspace) {
    if (r.kind() == AuthResource.Kind.DATA && r.keyspace() == null && r.name() != null) {
      if (keyspace == null) {
        throw Errors.invalid("No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename");
      }
      r = AuthResource.table(keyspace, r.name());
    }
    if (!exists(r)) {
      throw Errors.invalid("Resource " + r + " doesn't exist");
    }
    return r;
  }

  private boolean exists(AuthResource r) {
    Schema s = schema.current();
    return switch (r.kind()) {
      case DATA -> {
        if (r.keyspace() == null) {
          yield true;
        }
        KeyspaceMetadata k = s.keyspace(r.keyspace());
        yield k != null && (r.name() == null || k.tables().containsKey(r.name()));
      }
      case ROLES -> r.name() == null || roles.fresh(r.name()).isPresent();
      case FUNCTIONS -> r.keyspace() == null || s.keyspace(r.keyspace()) != null;
    };
  }

  private Result grantPermissions(AuthStatement.GrantPermissions g, String user, String keyspace) {
    if (!settings.checksPermissions()) {
      throw Errors.invalid((g.revoke() ? "REVOKE" : "GRANT") + " operation is not supported by AllowAllAuthorizer");
    }
    AuthResource resource = resolve(g.resource(), keyspace);
    Set<Permission> perms = EnumSet.noneOf(Permission.class);
    perms.addAll(g.all() ? resource.applicablePermissions() : g.permissions());
    perms.retainAll(resource.applicablePermissions());
    if (perms.isEmpty()) {
      throw Errors.syntax("Resource type " + resource.typeName() + " does not support any of the requested permissions");
    }
    ensure(user, Permission.AUTHORIZE, resource);
    for (Permission p : perms) {
      ensure(user, p, resource);
    }
    if (roles.fresh(g.grantee()).isEmpty()) {
      throw Errors.invalid("Role " + g.grantee() + " doesn't exist");
    }
    if (g.revoke()) {
      authorizer.revoke(perms, resource, g.grantee());
    } else {
      authorizer.grant(perms, resource, g.grantee());
    }
    return Result.Void.INSTANCE;
  }

  private Result listPermissions(AuthStatement.ListPermissions l, String user, String keyspace) {
    if (!settings.checksPermissions()) {
      throw Errors.invalid("LIST PERMISSIONS operation is not supported by AllowAllAuthorizer");
    }
    AuthResource resource = l.resource() == null ? null : resolve(l.resource(), keyspace);
    if (l.of() != null && roles.fresh(l.of()).isEmpty()) {
      throw Errors.invalid(AuthResource.role(l.of()) + " doesn't exist");
    }
    if (!roles.isSuper(user) && !hasPermission(user, Permission.DESCRIBE, AuthResource.ALL_ROLES)) {
      if (l.of() == null) {
        throw Errors.unauthorized("You are not authorized to view everyone's permissions");
      }
      if (!roles.rolesOf(user).contains(l.of())) {
        throw Errors.unauthorized("You are not authorized to view " + l.of() + "'s permissions");
      }
    }
    Set<AuthResource> resources = null;
    if (resource != null) {
      resources = new LinkedHashSet<>();
      for (AuthResource r = resource; r != null; r = l.recursive() ? r.parent() : null) {
        resources.add(r);
      }
    }
    Set<String> of = l.of() == null ? null : freshRolesOf(l.of());
    Set<Permission> perms = l.all() ? Permission.ALL : l.permissions();
    List<List<ByteBuffer>> rows = new ArrayList<>();
    for (CassandraAuthorizer.Grant g : authorizer.list(of, resources, perms)) {
      rows.add(List.of(AuthValues.text(g.role()), AuthValues.text(g.role()),
          AuthValues.text(g.resource().toString()), AuthValues.text(g.permission().name())));
    }
    if (rows.isEmpty()) {
      return Result.Void.INSTANCE; // Cassandra answers an empty LIST with no rows at all
    }
    return new Result.Rows(PERMISSION_COLUMNS, rows, null);
  }

  /** Drops the cached role rows (nodetool invalidaterolescache). */
  public void invalidateRolesCache() {
    roles.invalidateAll();
    network.invalidateAll();
  }

  /** Drops the cached permissions (nodetool invalidatepermissionscache): a GRANT holds at once. */
  public void invalidatePermissionsCache() {
    authorizer.invalidateAll();
  }

  /** Drops the cached password hashes (nodetool invalidatecredentialscache). */
  public void invalidateCredentialsCache() {
    if (authenticator instanceof PasswordAuthenticator p) {
      p.invalidateAll();
    }
  }

  /**
   * Checks a user name and password as a login would (the admin HTTP port's credential):
   * null when they are right, else Cassandra's text.
   */
  public String loginError(String username, String password) {
    if (!(authenticator instanceof PasswordAuthenticator p)) {
      return "PasswordAuthenticator is not enabled";
    }
    try {
      p.authenticate(username, password);
      return null;
    } catch (CqlException e) {
      return e.getMessage();
    }
  }

  /**
   * Whether the client's role holds {@code p} on table {@code keyspace.table} (or a parent), as
   * Cassandra's ClientState.hasTablePermission: always when permissions are not checked or the
   * client has no user (internal queries); superusers hold every permission.
   */
  public boolean hasTablePermission(ClientState state, Permission p, String keyspace, String table) {
    if (!settings.checksPermissions() || state.user() == null) {
      return true;
    }
    return hasPermission(state.user(), p, AuthResource.table(keyspace, table));
  }

  /** Whether a checked role is a superuser (401 vs 403 on the admin port). */
  public boolean isSuper(String username) {
    return roles.isSuper(username);
  }
}
