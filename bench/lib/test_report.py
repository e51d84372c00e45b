#!/usr/bin/env python3
"""Tests of report.py on a hand-made output directory: python3 bench/lib/test_report.py

The raw files are excerpts of real tool output (cassette stress, redis-benchmark 7.0 --csv,
probe.py fixed); the expected figures are worked out by hand from them.
"""
import os
import shutil
import tempfile
import unittest

import report

STRESS_WRITE = """Running WRITE with 50 threads for 2000 iteration
Results:
Op rate                   :    1,157 op/s  [WRITE: 1,157 op/s]
Latency mean              :   42.9 ms [WRITE: 42.9 ms]
Latency median            :   29.7 ms [WRITE: 29.7 ms]
Latency 95th percentile   :  129.6 ms [WRITE: 129.6 ms]
Latency 99th percentile   :  283.4 ms [WRITE: 283.4 ms]
Latency 99.9th percentile :  358.1 ms [WRITE: 358.1 ms]
Latency max               :  367.3 ms [WRITE: 367.3 ms]
Total operation time      : 00:00:01

END
"""

RB_CSV = '''"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
"SET","5602.24","8.683","0.328","7.407","19.199","32.255","49.855"
"GET","3169.57","14.853","0.248","4.695","18.111","399.359","399.615"
'''


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="bench-report-test.")
        for s in ("cassette", "cassandra", "redis"):
            os.makedirs(os.path.join(self.out, "raw", s))

    def tearDown(self):
        shutil.rmtree(self.out)

    def write(self, rel, text):
        with open(os.path.join(self.out, "raw", rel), "w") as f:
            f.write(text)

    def row(self, table, figure):
        rows = [r for r in table.rows if r[0] == figure]
        self.assertEqual(1, len(rows), figure)
        return rows[0]

    def test_stress_summary(self):
        self.assertEqual({"ops": 1157.0, "p50": 29.7, "p99": 283.4, "p999": 358.1, "max": 367.3},
                         report.parse_stress_text(STRESS_WRITE))

    def test_stress_without_end_is_not_a_figure(self):
        self.assertEqual({}, report.parse_stress_text(STRESS_WRITE.replace("END", "FAILURE")))

    def test_redis_benchmark_csv(self):
        self.write("redis/rb-p1.csv", RB_CSV)
        rb = report.parse_rb(os.path.join(self.out, "raw", "redis", "rb-p1.csv"))
        self.assertEqual((5602.24, 7.407, 32.255), rb["SET"])
        self.assertEqual((3169.57, 4.695, 399.359), rb["GET"])

    def test_ratios_and_verdicts(self):
        self.write("cassette/stress-write.txt", STRESS_WRITE)
        self.write("cassandra/stress-write.txt", STRESS_WRITE.replace("1,157", "231.4"))
        self.write("metrics.tsv", "\n".join("\t".join(x) for x in [
            ("cassette", "start_s", "0.80"), ("cassandra", "start_s", "40.00"),
            ("cassette", "rss_kb_idle", "102400"), ("cassandra", "rss_kb_idle", "819200"),
            ("run", "stress_row_bytes", "180"), ("run", "stress_n", "1000"),
            ("cassette", "write_bytes_before_write", "1000"),
            ("cassette", "write_bytes_after_compact", "361000"),
            ("cassandra", "write_bytes_before_write", "0"),
            ("cassandra", "write_bytes_after_compact", "720000")]) + "\n")
        t = report.build(self.out)
        start = self.row(t, "start to first answered query (s)")
        self.assertEqual(["0.80", "40.0", "-", "0.02x Cassandra", "< 1 s", "met"], start[1:])
        rss = self.row(t, "VmRSS idle (MiB)")
        self.assertEqual(["100", "800", "-", "0.12x Cassandra", "<= 1/4", "met"], rss[1:])
        ops = self.row(t, "stress write (op/s)")
        self.assertEqual("5.00x Cassandra", ops[4])
        self.assertEqual("met", ops[6])
        p99 = self.row(t, "stress write p99 (ms)")
        self.assertEqual("1.00x Cassandra", p99[4])
        self.assertEqual("NOT met", p99[6])
        wear = self.row(t, "disk bytes / user byte (stress, flushed, compacted)")
        self.assertEqual(["2.00", "4.00", "-", "0.50x Cassandra", "<= Cassandra", "met"], wear[1:])

    def test_server_cpu_per_op(self):
        self.write("cassette/stress-write.txt", STRESS_WRITE)
        self.write("cassandra/stress-write.txt", STRESS_WRITE)
        self.write("cassette/rb-p1.csv", RB_CSV)
        self.write("redis/rb-p1.csv", RB_CSV)
        self.write("metrics.tsv", "\n".join("\t".join(x) for x in [
            ("run", "clk_tck", "100"),
            ("cassette", "cpu_ticks_stress_write", "150"), ("cassette", "cpu_ops_stress_write", "10000"),
            ("cassandra", "cpu_ticks_stress_write", "600"), ("cassandra", "cpu_ops_stress_write", "10000"),
            ("cassette", "cpu_ticks_rb_get_p1", "40"), ("cassette", "cpu_ops_rb_get_p1", "5000"),
            ("redis", "cpu_ticks_rb_get_p1", "8"), ("redis", "cpu_ops_rb_get_p1", "5000")]) + "\n")
        t = report.build(self.out)
        # 150 ticks of 10 ms over 10,000 ops: 150 us; Cassandra 600 us
        row = self.row(t, "server CPU per op, stress write (us)")
        self.assertEqual(["150", "600", "-", "0.25x Cassandra", "<= 1/5", "NOT met"], row[1:])
        row = self.row(t, "server CPU per op, redis-benchmark GET (us)")
        self.assertEqual(["80.0", "-", "16.0", "5.00x Redis", "", ""], row[1:])
        # no stress read output: no CPU figure even though the server burnt some
        self.assertEqual(["-", "-", "-"], self.row(t, "server CPU per op, stress read (us)")[1:4])
        self.assertIn("rests on 8 ticks (redis rb_get_p1)", report.cpu_resolution(report.read_metrics(self.out)))

    def test_missing_figures_are_dashes_without_verdict(self):
        t = report.build(self.out)
        row = self.row(t, "stress read (op/s)")
        self.assertEqual(["-", "-", "-", "", ">= 5x", ""], row[1:])


if __name__ == "__main__":
    unittest.main()
