package io.cassette.cql.language.schema;

import java.util.Map;

/** A secondary index: {@code options.target} names the column (and keys()/values()/entries()). */
public record IndexMetadata(String name, String kind, Map<String, String> options) {}
