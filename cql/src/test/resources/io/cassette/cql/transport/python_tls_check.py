"""Python driver with ssl_context against a Cassette node's TLS door.
Usage: python_tls_check.py HOST PORT CA_PEM [CERT_PEM KEY_PEM]; prints OK <protocol version>."""
import ssl
import sys

from cassandra.cluster import Cluster
from cassandra.policies import RoundRobinPolicy

host, port, ca = sys.argv[1], int(sys.argv[2]), sys.argv[3]
context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca)
context.check_hostname = False  # the node is dialled by address; the CA still vouches for it
if len(sys.argv) > 5:
    context.load_cert_chain(sys.argv[4], sys.argv[5])
cluster = Cluster([host], port=port, load_balancing_policy=RoundRobinPolicy(), ssl_context=context,
                  connect_timeout=10, control_connection_timeout=10)
session = cluster.connect()
session.default_timeout = 10
version = session.execute("SELECT release_version FROM system.local").one().release_version
assert version == "5.0.4", version
session.execute("INSERT INTO ks.kv (k, v) VALUES (%s, %s)", (7101, "over tls"))
select = session.prepare("SELECT v FROM ks.kv WHERE k = ?")
assert session.execute(select, (7101,)).one().v == "over tls"
print("OK", cluster.protocol_version)
cluster.shutdown()
