package io.cassette.cql.auth;

/** One permission a statement needs on one resource. */
public record RequiredPermission(Permission permission, AuthResource resource) {}
