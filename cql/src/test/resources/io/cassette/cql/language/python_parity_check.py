# The Python driver against Cassette: query traces, client warnings, protocol v6 beta.
# Usage: python_parity_check.py HOST PORT ; prints lines the Java test checks, exits 0.
import sys
from cassandra.cluster import Cluster

host, port = sys.argv[1], int(sys.argv[2])
cluster = Cluster([host], port=port)
s = cluster.connect()
s.execute("INSERT INTO p.t (k, c, v) VALUES (1, 1, 'a')")
rs = s.execute("SELECT * FROM p.t WHERE k = 1", trace=True)
trace = rs.get_query_trace(max_wait_sec=10)
print("TRACE", trace.request_type, trace.coordinator, trace.duration.total_seconds() > 0)
for e in trace.events:
    print("EVENT", e.description, e.source, e.source_elapsed)
s.execute("CREATE TABLE IF NOT EXISTS p.tomb (k int, c int, v int, w int, PRIMARY KEY (k, c))")
for i in range(15):
    s.execute("DELETE FROM p.tomb WHERE k = 1 AND c = %d" % i)
rs = s.execute("SELECT * FROM p.tomb WHERE k = 1")
for w in rs.response_future.warnings or []:
    print("WARN", w)
for i in range(30):
    s.execute("DELETE FROM p.tomb WHERE k = 3 AND c = %d" % i)
try:
    s.execute("SELECT * FROM p.tomb WHERE k = 3")
    print("NO FAILURE")
except Exception as e:
    print("FAIL", type(e).__name__, e)
cluster.shutdown()

from cassandra import ProtocolVersion
beta = Cluster([host], port=port, protocol_version=ProtocolVersion.V6, allow_beta_protocol_version=True)
s = beta.connect()
print("V6", beta.protocol_version, [r.c for r in s.execute("SELECT c FROM p.t WHERE k = 1")])
beta.shutdown()
print("DONE")
