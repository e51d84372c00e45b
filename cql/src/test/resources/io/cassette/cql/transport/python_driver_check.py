"""Python driver (DataStax cassandra-driver, Debian's python3-cassandra) against a Cassette
node: negotiate the protocol with default settings, write and read back, prepared and simple.
Usage: python_driver_check.py HOST PORT [COMPRESSION]; prints OK <protocol version> on success."""
import sys

from cassandra.cluster import Cluster
from cassandra.policies import RoundRobinPolicy

host, port = sys.argv[1], int(sys.argv[2])
compression = sys.argv[3] if len(sys.argv) > 3 else True
cluster = Cluster([host], port=port, load_balancing_policy=RoundRobinPolicy(), compression=compression,
                  connect_timeout=10, control_connection_timeout=10)
session = cluster.connect()
session.default_timeout = 10
version = session.execute("SELECT release_version FROM system.local").one().release_version
assert version == "5.0.4", version
session.execute("INSERT INTO ks.kv (k, v) VALUES (%s, %s)", (7001, "simple"))
insert = session.prepare("INSERT INTO ks.kv (k, v) VALUES (?, ?)")
session.execute(insert, (7002, "prepared"))
select = session.prepare("SELECT v FROM ks.kv WHERE k = ?")
assert session.execute(select, (7001,)).one().v == "simple"
assert session.execute(select, (7002,)).one().v == "prepared"
big = "p" * 300000
assert session.execute("ECHO " + big).one()[0] == big
conn = cluster.control_connection._connection
print("COMPRESSION", conn.compressor is not None, "SEGMENTS", getattr(conn, "_is_checksumming_enabled", None))
print("OK", cluster.protocol_version)
cluster.shutdown()
