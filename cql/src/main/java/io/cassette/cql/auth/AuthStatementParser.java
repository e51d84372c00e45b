package io.cassette.cql.auth;

import io.cassette.cql.CqlException;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.parser.StatementLimits;
import io.cassette.cql.language.parser.Token;
import io.cassette.cql.language.parser.Token.Kind;
import io.cassette.cql.language.parser.TokenCursor;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the role and permission statements of Cassandra 5.0's grammar: CREATE/ALTER/DROP
 * ROLE and USER, LIST ROLES/USERS, GRANT/REVOKE role, GRANT/REVOKE/LIST permissions. Kept
 * apart from the main parser so that the statements about data never pay for it:
 * {@link #isAuthStatement} looks at the first two words only. Errors are Cassandra's ANTLR
 * texts (the shared {@link TokenCursor}); bind markers are refused where Cassandra refuses them
 * (every name and value of these statements is a literal), so a prepared role statement has no
 * variables. Not thread-safe; one instance per statement.
 */
public final class AuthStatementParser extends TokenCursor {
  private AuthStatementParser(String query, StatementLimits limits) {
    super(query, limits.maxTokens(), limits.maxTokens());
  }

  /**
   * True when {@code query} starts with GRANT, REVOKE, LIST or CREATE/ALTER/DROP followed by
   * ROLE or USER (comments and whitespace skipped). Allocates nothing for other statements.
   */
  public static boolean isAuthStatement(String query) {
    int i = skipHidden(query, 0);
    int end = wordEnd(query, i);
    if (end == i) {
      return false;
    }
    if (word(query, i, end, "grant") || word(query, i, end, "revoke") || word(query, i, end, "list")) {
      return true;
    }
    if (!(word(query, i, end, "create") || word(query, i, end, "alter") || word(query, i, end, "drop"))) {
      return false;
    }
    int j = skipHidden(query, end);
    int end2 = wordEnd(query, j);
    return word(query, j, end2, "role") || word(query, j, end2, "user");
  }

  private static boolean word(String q, int from, int to, String w) {
    return to - from == w.length() && q.regionMatches(true, from, w, 0, w.length());
  }

  private static int wordEnd(String q, int i) {
    while (i < q.length() && Character.isLetter(q.charAt(i))) {
      i++;
    }
    return i;
  }

  private static int skipHidden(String q, int i) {
    while (i < q.length()) {
      char c = q.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (q.startsWith("--", i) || q.startsWith("//", i)) {
        while (i < q.length() && q.charAt(i) != '\n') {
          i++;
        }
      } else if (q.startsWith("/*", i)) {
        int e = q.indexOf("*/", i + 2);
        i = e < 0 ? q.length() : e + 2;
      } else {
        break;
      }
    }
    return i;
  }

  /** Parses one statement (an optional trailing ';' is allowed), with this JVM's default bounds. */
  public static AuthStatement parse(String query) {
    return parse(query, StatementLimits.DEFAULTS);
  }

  /** Parses one statement of a client of a node with these bounds. */
  public static AuthStatement parse(String query, StatementLimits limits) {
    AuthStatementParser p = new AuthStatementParser(query, limits);
    AuthStatement s = p.statement();
    p.accept(";");
    if (p.peek().kind() != Kind.EOF) {
      throw p.mismatched(p.peek(), "EOF");
    }
    return s;
  }

  // ------------------------------------------------------------------ tokens

  /**
   * Cassandra's lexer reads {@code :name} as ':' then a name, so its errors show ':' where ours
   * has one named-marker token.
   */
  private static Token asCassandraSees(Token t) {
    return t.kind() == Kind.NAMED_MARKER
        ? new Token(Kind.SYMBOL, ":", ":", t.line(), t.column(), t.start(), t.start() + 1, t.rawIndex()) : t;
  }

  @Override
  protected CqlException mismatched(Token t, String expecting) {
    return super.mismatched(asCassandraSees(t), expecting);
  }

  /** ANTLR's "no viable alternative" as these rules report it: the offending token bracketed. */
  private CqlException noViableAt(Token t) {
    Token c = asCassandraSees(t);
    return Errors.syntax(position(c) + " no viable alternative at input '" + c.text() + "'" + snippet(c, c));
  }

  /** Cassandra's grammar has a '?' alternative in its name rules only to say this. */
  private static CqlException bindVariable(String what) {
    return Errors.syntax("Bind variables cannot be used for " + what + " names");
  }

  /** A role name: an identifier (lower-cased), a "quoted name" or a 'string' (exact). */
  private String roleName() {
    if (peek().kind() == Kind.QMARK) {
      throw bindVariable("role");
    }
    return userName();
  }

  /** A user name (CREATE/ALTER/DROP USER): as a role name, with no '?' alternative in the grammar. */
  private String userName() {
    Token t = peek();
    if (t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT || t.kind() == Kind.STRING) {
      pos++;
      return t.value();
    }
    throw noViableAt(t);
  }

  /** A keyspace or table name; {@code what} names it in the bind-marker error. */
  private String ident(String what) {
    Token t = peek();
    if (t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) {
      pos++;
      return t.value();
    }
    if (t.kind() == Kind.QMARK) {
      throw bindVariable(what);
    }
    throw mismatched(t, "IDENT");
  }

  private String string() {
    Token t = peek();
    if (t.kind() != Kind.STRING) {
      throw mismatched(t, "STRING_LITERAL");
    }
    pos++;
    return t.value();
  }

  private boolean bool() {
    Token t = peek();
    if (t.is("true") || t.is("false")) {
      pos++;
      return t.is("true");
    }
    throw mismatched(t, "BOOLEAN");
  }

  // ------------------------------------------------------------------ statements

  private AuthStatement statement() {
    Token t = next();
    switch (t.value().toLowerCase(Locale.ROOT)) {
      case "create" -> {
        boolean user = accept("user");
        if (!user) {
          expect("role");
        }
        boolean ine = false;
        if (accept("if")) {
          expect("not");
          expect("exists");
          ine = true;
        }
        String name = user ? userName() : roleName();
        return new AuthStatement.CreateRole(name, ine, user ? userOptions() : roleOptions(), user);
      }
      case "alter" -> {
        boolean user = accept("user");
        if (!user) {
          expect("role");
        }
        boolean ie = false;
        if (accept("if")) {
          expect("exists");
          ie = true;
        }
        String name = user ? userName() : roleName();
        RoleOptions o = user ? userOptions() : roleOptions();
        return new AuthStatement.AlterRole(name, ie, o, user);
      }
      case "drop" -> {
        boolean user = accept("user");
        if (!user) {
          expect("role");
        }
        boolean ie = false;
        if (accept("if")) {
          expect("exists");
          ie = true;
        }
        return new AuthStatement.DropRole(user ? userName() : roleName(), ie, user);
      }
      case "grant", "revoke" -> {
        boolean revoke = t.is("revoke");
        String to = revoke ? "from" : "to";
        if (!atPermission() && !at("all")) {
          String role = roleName();
          expect(to);
          return new AuthStatement.GrantRole(role, roleName(), revoke);
        }
        Set<Permission> perms = EnumSet.noneOf(Permission.class);
        boolean all = permissions(perms);
        expect("on");
        AuthResource r = resource();
        expect(to);
        return new AuthStatement.GrantPermissions(perms, all, r, roleName(), revoke);
      }
      case "list" -> {
        if (accept("roles")) {
          String of = accept("of") ? roleName() : null;
          boolean recursive = !accept("norecursive");
          return new AuthStatement.ListRoles(of, recursive, false);
        }
        if (accept("users")) {
          return new AuthStatement.ListRoles(null, true, true);
        }
        Set<Permission> perms = EnumSet.noneOf(Permission.class);
        boolean all = permissions(perms);
        AuthResource r = accept("on") ? resource() : null;
        String of = accept("of") ? roleName() : null;
        boolean recursive = !accept("norecursive");
        return new AuthStatement.ListPermissions(perms, all, r, of, recursive);
      }
      default -> throw noViableAt(t);
    }
  }

  private boolean atPermission() {
    Token t = peek();
    if (t.kind() != Kind.IDENT) {
      return false;
    }
    try {
      Permission.valueOf(t.value().toUpperCase(Locale.ROOT));
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** ALL [PERMISSIONS] (returns true) or permission [PERMISSION] (, permission [PERMISSION])*. */
  private boolean permissions(Set<Permission> into) {
    if (accept("all")) {
      accept("permissions");
      return true;
    }
    do {
      if (!atPermission()) {
        throw noViableAt(peek());
      }
      into.add(Permission.valueOf(next().value().toUpperCase(Locale.ROOT)));
      accept("permission");
    } while (accept(","));
    return false;
  }

  private AuthResource resource() {
    if (accept("all")) {
      if (accept("keyspaces")) {
        return AuthResource.ALL_KEYSPACES;
      }
      if (accept("roles")) {
        return AuthResource.ALL_ROLES;
      }
      if (accept("functions")) {
        if (accept("in")) {
          expect("keyspace");
          return AuthResource.functionsIn(ident("keyspace"));
        }
        return AuthResource.ALL_FUNCTIONS;
      }
      if (accept("mbeans")) {
        throw Errors.invalid("MBean resources are not supported: Cassette has no JMX");
      }
      throw noViableAt(peek());
    }
    if (accept("keyspace")) {
      return AuthResource.keyspace(ident("keyspace"));
    }
    if (accept("role")) {
      return AuthResource.role(roleName());
    }
    if (accept("function")) {
      String ks = ident("keyspace");
      String fn;
      if (accept(".")) {
        fn = ident("function");
      } else {
        fn = ks;
        ks = null;
      }
      expect("(");
      List<String> types = new ArrayList<>();
      if (!at(")")) {
        do {
          StringBuilder type = new StringBuilder();
          int depth = 0;
          while (peek().kind() != Kind.EOF && !(depth == 0 && (at(",") || at(")")))) {
            Token t = next();
            depth += t.is("<") ? 1 : t.is(">") ? -1 : 0;
            type.append(t.value());
          }
          types.add(type.toString());
        } while (accept(","));
      }
      expect(")");
      return AuthResource.function(ks, fn + "(" + String.join(", ", types) + ")");
    }
    if (accept("mbean") || accept("mbeans")) {
      throw Errors.invalid("MBean resources are not supported: Cassette has no JMX");
    }
    accept("table");
    accept("columnfamily");
    String first = ident(peek(1).is(".") ? "keyspace" : "table");
    if (accept(".")) {
      return AuthResource.table(first, ident("table"));
    }
    return AuthResource.table(null, first); // resolved against the client's keyspace
  }

  /** [WITH option (AND option)*] of CREATE/ALTER ROLE. */
  private RoleOptions roleOptions() {
    String password = null;
    String hashed = null;
    Boolean login = null;
    Boolean superuser = null;
    Map<String, String> options = null;
    Set<String> dcs = null;
    Set<String> seen = new LinkedHashSet<>();
    if (!accept("with")) {
      return RoleOptions.NONE;
    }
    do {
      Token t = next();
      String name = t.value().toUpperCase(Locale.ROOT);
      switch (name) {
        case "PASSWORD" -> {
          expect("=");
          password = string();
        }
        case "HASHED" -> {
          expect("password");
          expect("=");
          hashed = string();
          name = "HASHED PASSWORD";
        }
        case "GENERATED" -> throw Errors.invalid("GENERATED PASSWORD is not supported by Cassette; give a PASSWORD");
        case "LOGIN" -> {
          expect("=");
          login = bool();
        }
        case "SUPERUSER" -> {
          expect("=");
          superuser = bool();
        }
        case "OPTIONS" -> {
          expect("=");
          options = map();
        }
        case "ACCESS" -> {
          if (accept("from")) {
            // CIDR filtering: parsed for scripts written for Cassandra 5.0, not enforced.
            if (!accept("all")) {
              expect("cidrs");
              stringSet();
            } else {
              expect("cidrs");
            }
            name = "ACCESS FROM CIDRS";
          } else {
            expect("to");
            if (accept("all")) {
              expect("datacenters");
              dcs = Set.of();
            } else {
              expect("datacenters");
              dcs = stringSet();
            }
            name = "ACCESS TO DATACENTERS";
          }
        }
        default -> throw noViableAt(t);
      }
      if (!seen.add(name)) {
        throw Errors.syntax("Multiple definition for property '" + name + "'");
      }
    } while (accept("and"));
    return new RoleOptions(password, hashed, login, superuser, options, dcs);
  }

  /** [WITH [HASHED] PASSWORD 'x'] [SUPERUSER | NOSUPERUSER] of CREATE/ALTER USER. */
  private RoleOptions userOptions() {
    String password = null;
    String hashed = null;
    Boolean superuser = null;
    if (accept("with")) {
      if (accept("hashed")) {
        expect("password");
        hashed = string();
      } else {
        expect("password");
        password = string();
      }
    }
    if (accept("superuser")) {
      superuser = true;
    } else if (accept("nosuperuser")) {
      superuser = false;
    }
    return new RoleOptions(password, hashed, null, superuser, null, null);
  }

  private Map<String, String> map() {
    expect("{");
    Map<String, String> m = new LinkedHashMap<>();
    if (!at("}")) {
      do {
        String k = string();
        expect(":");
        Token v = next();
        if (v.kind() == Kind.QMARK || v.kind() == Kind.NAMED_MARKER) {
          throw Errors.syntax("Invalid property value: " + v.text() + " for property: '" + k
              + "' (bind variables are not supported in DDL queries)");
        }
        m.put(k, v.value());
      } while (accept(","));
    }
    expect("}");
    return m;
  }

  /** {@code '{' 'a' (, 'b')* '}'}: at least one string, as Cassandra's grammar. */
  private Set<String> stringSet() {
    expect("{");
    Set<String> s = new LinkedHashSet<>();
    do {
      s.add(string());
    } while (accept(","));
    expect("}");
    return s;
  }
}
