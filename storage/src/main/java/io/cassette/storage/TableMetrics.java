package io.cassette.storage;

/** A point-in-time copy of one table's counters (nodetool tablestats, /metrics). */
public record TableMetrics(long reads, long writes, long readLatencyMicrosTotal,
                           long writeLatencyMicrosTotal, int sstableCount, long bytesOnDisk,
                           long bytesWritten, long memtableBytes, int pendingCompactions,
                           long bloomFilterFalsePositives) {}
