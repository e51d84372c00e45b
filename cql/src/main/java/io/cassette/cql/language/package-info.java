/**
 * The CQL language of Cassette: what the native-protocol transport hands a statement to.
 *
 * <p>{@link io.cassette.cql.language.CqlLanguage} implements {@link io.cassette.cql.QueryHandler}.
 * A statement flows through four layers, each in its own sub-package:
 * <ol>
 *   <li>{@code parser}: a hand-written recursive-descent parser of Cassandra 5.0's CQL into
 *       {@code Statement} records; syntax errors read like Cassandra's ANTLR messages
 *       ({@code line 1:9 mismatched input 'FORM' expecting K_FROM (SELECT * [FORM]...)}).</li>
 *   <li>{@code schema}: immutable {@code Schema} snapshots numbered by epoch, with a
 *       schema_version UUID; changes are serialized by {@code SchemaManager} and committed as
 *       entries of the coordinator's metadata log (each keyspace's CQL text rides in its
 *       {@code KeyspaceDefinition}), replayed at start, and announced to
 *       {@code onSchemaChange} listeners.</li>
 *   <li>{@code statements}: compiled, reusable {@code Executable}s (SELECT with paging,
 *       INSERT/UPDATE/DELETE with lightweight transactions and counters, BATCH, DDL,
 *       DESCRIBE); prepared statements are recompiled when the schema epoch moves.</li>
 *   <li>{@code types} and {@code functions}: serialization, literal parsing, comparison and
 *       text/JSON forms of every CQL type, and the system functions.</li>
 * </ol>
 * {@code system} computes system.local/peers/peers_v2, system_schema.* and
 * system_virtual_schema.* from the live schema and serves them like stored tables.
 *
 * <p>Storage layout (see {@code statements.KeyCodec}, {@code types.ComparableEncoding},
 * {@code statements.CellCodec}): partition keys are Cassandra's bytes (so Murmur3 tokens match
 * drivers'); clustering keys are byte-comparable, prefix-free encodings (DESC inverted);
 * non-frozen collections and UDTs are one cell per element with a cell path; counters are
 * bigint cells updated read-modify-write, held by the coordinator per partition
 * ({@code Coordinator.readModifyWrite}), as are LWTs ({@code compareAndSet}). Every read and
 * write goes through the coordinator at the request's consistency level.
 *
 * <p>Known differences from Cassandra: a collection overwrite reads the old elements to
 * tombstone them (storage has no column-level deletion); decimals equal in value but with
 * different scales are distinct clustering values; secondary indexes live in their own storage
 * tables, are cleaned lazily (a query re-checks each base row; see {@code SecondaryIndexes}) and
 * custom ones (SAI, SASI) are answered by a filtered scan; user-defined functions, aggregates and
 * materialized views are refused.
 */
package io.cassette.cql.language;
