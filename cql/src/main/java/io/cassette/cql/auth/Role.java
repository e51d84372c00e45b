package io.cassette.cql.auth;

import java.util.Set;

/**
 * One row of {@code system_auth.roles}.
 *
 * @param memberOf the roles granted to this one (directly)
 */
public record Role(String name, boolean superuser, boolean canLogin, String saltedHash, Set<String> memberOf) {}
