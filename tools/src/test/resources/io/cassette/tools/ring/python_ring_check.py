"""The DataStax Python driver (Debian's python3-cassandra) against a ring of three Cassette nodes:
connected to one node it discovers all three, routes each prepared statement to its key's
owner (token-aware), and reads every row written through any node back through each node.
Usage: python_ring_check.py HOST PORT KEYSPACE; prints OK <hosts> <routed> on success."""
import sys
import time

from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy

host, port, keyspace = sys.argv[1], int(sys.argv[2]), sys.argv[3]
profile = ExecutionProfile(
    load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy(local_dc="datacenter1"), shuffle_replicas=False),
    request_timeout=20)
cluster = Cluster([host], port=port, execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                  connect_timeout=10, control_connection_timeout=10)
session = cluster.connect()


def address(h):
    return getattr(h, "address", None) or str(h).split(":")[0]


deadline = time.time() + 30
while True:
    hosts = sorted(h.address for h in cluster.metadata.all_hosts() if h.is_up)
    if len(hosts) == 3 or time.time() > deadline:
        break
    time.sleep(0.2)
assert hosts == ["127.0.0.1", "127.0.0.2", "127.0.0.3"], hosts
assert all(h.datacenter == "datacenter1" and h.rack == "rack1" for h in cluster.metadata.all_hosts())
token_map = cluster.metadata.token_map
assert token_map is not None and len(token_map.ring) == 48, token_map and len(token_map.ring)

session.execute("CREATE TABLE IF NOT EXISTS %s.py (k int PRIMARY KEY, v text)" % keyspace)
insert = session.prepare("INSERT INTO %s.py (k, v) VALUES (?, ?)" % keyspace)
select = session.prepare("SELECT v FROM %s.py WHERE k = ?" % keyspace)
owners = set()
routed = 0
for k in range(60):
    bound = insert.bind((k, "v%d" % k))
    replicas = cluster.metadata.get_replicas(keyspace, bound.routing_key)
    assert len(replicas) == 1, replicas
    rs = session.execute(bound)
    coordinator = address(rs.response_future.coordinator_host)
    assert coordinator == replicas[0].address, (k, coordinator, replicas[0].address)
    owners.add(coordinator)
    routed += 1
assert len(owners) == 3, owners
for h in cluster.metadata.all_hosts():
    for k in range(0, 60, 7):
        row = session.execute(select, (k,), host=h).one()
        assert row is not None and row.v == "v%d" % k, (h.address, k, row)
    assert len(list(session.execute("SELECT k FROM %s.py" % keyspace, host=h))) == 60, h.address
print("OK", len(hosts), routed)
cluster.shutdown()
