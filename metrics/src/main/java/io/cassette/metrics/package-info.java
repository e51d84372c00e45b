/**
 * Metrics beside every layer: counters, gauges and latency histograms in one registry
 * (rendered as Prometheus text and as CQL virtual tables), the latency monitor that records
 * events above {@code latency_monitor_threshold} and its doctor, and the slow query log.
 * Depends on no other Cassette module.
 */
package io.cassette.metrics;
