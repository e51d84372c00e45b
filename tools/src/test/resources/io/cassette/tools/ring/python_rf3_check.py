"""The DataStax Python driver (Debian's python3-cassandra) against a ring of three Cassette nodes
with replication factor 3, default settings but the local data centre, at QUORUM.
Usage: python_rf3_check.py HOST PORT KEYSPACE write|read ROWS
  write: discovers the 3 nodes, writes ROWS rows at QUORUM (prepared,
         token-aware: each sent to one of its key's 3 replicas) and reads each back at QUORUM;
  read:  reads every row back at QUORUM (a node may be down: QUORUM is 2 of 3).
Prints OK <hosts up> <rows>."""
import sys
import time

from cassandra import ConsistencyLevel
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy

host, port, keyspace, mode, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
profile = ExecutionProfile(
    load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy(local_dc="datacenter1")),
    consistency_level=ConsistencyLevel.QUORUM, request_timeout=20)
cluster = Cluster([host], port=port, execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                  connect_timeout=10, control_connection_timeout=10)
session = cluster.connect()


def address(h):
    return getattr(h, "address", None) or str(h).split(":")[0]


def up():
    return sorted(h.address for h in cluster.metadata.all_hosts() if h.is_up)


if mode == "write":
    deadline = time.time() + 30
    while len(up()) < 3 and time.time() < deadline:
        time.sleep(0.2)
    assert up() == ["127.0.0.1", "127.0.0.2", "127.0.0.3"], up()
    insert = session.prepare("INSERT INTO %s.py (k, v) VALUES (?, ?)" % keyspace)
    for k in range(rows):
        bound = insert.bind((k, "v%d" % k))
        replicas = cluster.metadata.get_replicas(keyspace, bound.routing_key)
        assert len(replicas) == 3, (k, replicas)
        rs = session.execute(bound)
        coordinator = address(rs.response_future.coordinator_host)
        assert coordinator in [r.address for r in replicas], (k, coordinator)

select = session.prepare("SELECT v FROM %s.py WHERE k = ?" % keyspace)
lost = [k for k in range(rows) if (lambda r: r is None or r.v != "v%d" % k)(session.execute(select, (k,)).one())]
assert not lost, "rows not read back at QUORUM: %s" % lost
count = session.execute("SELECT count(*) FROM %s.py" % keyspace, timeout=30).one()[0]
assert count == rows, count
print("OK %d %d" % (len(up()), rows))
cluster.shutdown()
