package io.cassette.cql.language.parser;

import java.util.List;

/** One IF condition of a lightweight transaction: {@code c op v}, {@code c[k] op v}, {@code c.f op v}. */
public record Condition(String column, Term elementKey, String field, Relation.Operator op,
                        Term value, List<Term> inValues) {}
