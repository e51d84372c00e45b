package io.cassette.cql.language.statements;

import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.storage.Engine;

/** What executing statements need from the node: schema, storage, clock, locks, node info. */
public record Services(SchemaManager schema, Engine engine, MicrosClock clock,
                       PartitionLocks locks, NodeInfo node) {}
