/**
 * The Redis front door: a Netty RESP2/RESP3 server and Redis 7.0 commands stored through
 * the storage engine. May depend on {@code storage}; never on {@code cql}.
 */
package io.cassette.resp;
