/**
 * Operator tools run by bin/cassette: {@code stress} (cassandra-stress compatible),
 * {@code nodetool} (over the admin HTTP port), {@code cqlsh} (JLine CQL shell) and
 * {@code service} (systemd unit / SysV script). Each lives in its own sub-package with a
 * {@code *Main} class.
 */
package io.cassette.tools;
