# The DataStax Python driver against Cassette's language: metadata, DDL, prepared, paging.
import sys
from cassandra.cluster import Cluster
from cassandra.query import SimpleStatement

host, port = sys.argv[1], int(sys.argv[2])
cluster = Cluster([host], port=port)
session = cluster.connect()
session.execute("CREATE KEYSPACE IF NOT EXISTS py WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
session.execute("CREATE TABLE IF NOT EXISTS py.t (k int, c int, v text, m map<text, int>, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)")
cluster.refresh_schema_metadata()
table = cluster.metadata.keyspaces['py'].tables['t']
assert [c.name for c in table.partition_key] == ['k'], table.partition_key
assert [c.name for c in table.clustering_key] == ['c'], table.clustering_key
assert table.columns['m'].cql_type == 'map<text, int>', table.columns['m'].cql_type
assert 'CLUSTERING ORDER BY (c DESC)' in table.export_as_string(), table.export_as_string()
insert = session.prepare("INSERT INTO py.t (k, c, v, m) VALUES (?, ?, ?, ?)")
for i in range(250):
    session.execute(insert, (i % 5, i, 'v%d' % i, {'a': i}))
rows = list(session.execute(SimpleStatement("SELECT * FROM py.t", fetch_size=17)))
assert len(rows) == 250, len(rows)
one = session.execute("SELECT c, v, m FROM py.t WHERE k = 1 LIMIT 2").all()
assert [r.c for r in one] == [246, 241], one
assert one[0].m == {'a': 246}, one[0].m
tok = cluster.metadata.token_map.token_class.from_key(b'\x00\x00\x00\x01')
server = session.execute("SELECT token(k) FROM py.t WHERE k = 1 LIMIT 1").one()[0]
assert tok.value == server, (tok.value, server)
print("OK")
cluster.shutdown()
