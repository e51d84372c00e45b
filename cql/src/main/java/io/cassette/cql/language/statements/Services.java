package io.cassette.cql.language.statements;

import io.cassette.coordinator.Coordinator;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.system.TraceStore;

/**
 * What executing statements need from the node: schema, the coordinator (every read and
 * write goes through it), the clock, node info, the traces kept (system_traces) and the
 * tombstone thresholds of reads, how many bytes a SELECT may collect, and the bounds on a client's
 * statements (both set at start from config, per node), the user-defined function settings and
 * dynamic data masking.
 */
public record Services(SchemaManager schema, Coordinator coordinator, MicrosClock clock, NodeInfo node,
                       TraceStore traces, TombstoneThresholds tombstones,
                       java.util.concurrent.atomic.AtomicReference<ResultSizeLimits> resultSize,
                       java.util.concurrent.atomic.AtomicReference<io.cassette.cql.language.parser.StatementLimits> statementLimits,
                       java.util.concurrent.atomic.AtomicReference<io.cassette.cql.language.functions.UserFunctions.Settings> userFunctions,
                       DataMasking masking,
                       /** materialized_views_enabled: CREATE MATERIALIZED VIEW refused when false (Cassandra 5.0's default). */
                       java.util.concurrent.atomic.AtomicBoolean materializedViews) {}
