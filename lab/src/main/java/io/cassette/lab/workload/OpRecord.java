package io.cassette.lab.workload;

import io.cassette.lab.check.Status;

/** One client operation as the latency chart and the counts see it (ns since the run began). */
public record OpRecord(String workload, long call, long ret, Status status) {
  public long latencyNanos() {
    return ret - call;
  }
}
