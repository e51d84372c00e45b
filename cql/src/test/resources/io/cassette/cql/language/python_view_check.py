# The DataStax Python driver (Debian's python3-cassandra) as an application uses a materialized
# view: created over rows already there, kept in step with prepared writes (a row moving to
# another view key, a delete), read with a prepared, paged SELECT, seen in the driver's schema
# metadata as a view of its base table, refused as a write target. One line per check, then DONE.
import sys
from cassandra import InvalidRequest
from cassandra.cluster import Cluster

host, port = sys.argv[1], int(sys.argv[2])
cluster = Cluster([host], port=port)
session = cluster.connect()
session.execute("CREATE KEYSPACE pyview WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
session.execute("CREATE TABLE pyview.users (user text PRIMARY KEY, status text, email text)")
insert = session.prepare("INSERT INTO pyview.users (user, status, email) VALUES (?, ?, ?)")
for i in range(30):
    session.execute(insert, ("u%d" % i, "active" if i % 2 == 0 else "idle", "u%d@x" % i))
future = session.execute_async("CREATE MATERIALIZED VIEW pyview.by_status AS SELECT * FROM pyview.users"
                               " WHERE status IS NOT NULL AND user IS NOT NULL PRIMARY KEY (status, user)")
future.result()
print("WARNINGS %s" % future.warnings)

by_status = session.prepare("SELECT user FROM pyview.by_status WHERE status = ?")
by_status.fetch_size = 4
active = sorted(r.user for r in session.execute(by_status, ("active",)))
assert active == sorted("u%d" % i for i in range(0, 30, 2)), active
print("BUILT %d active" % len(active))

session.execute(session.prepare("UPDATE pyview.users SET status = ? WHERE user = ?"), ("banned", "u0"))
session.execute("DELETE FROM pyview.users WHERE user = 'u2'")
banned = [r.user for r in session.execute(by_status, ("banned",))]
active = [r.user for r in session.execute(by_status, ("active",))]
assert banned == ["u0"], banned
assert "u0" not in active and "u2" not in active and len(active) == 13, active
print("IN STEP banned=%s active=%d" % (banned, len(active)))

cluster.refresh_schema_metadata()
ks = cluster.metadata.keyspaces["pyview"]
view = ks.views["by_status"]
assert view.base_table_name == "users", view.base_table_name
assert "by_status" in ks.tables["users"].views, ks.tables["users"].views
print("METADATA view of %s, partition key %s" % (view.base_table_name, [c.name for c in view.partition_key]))

try:
    session.execute("INSERT INTO pyview.by_status (status, user) VALUES ('x', 'y')")
    raise SystemExit("a write to the view was accepted")
except InvalidRequest as e:
    print("REFUSED %s" % e)
cluster.shutdown()
print("DONE")
