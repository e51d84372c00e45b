# The DataStax Python driver (Debian's python3-cassandra) as an application uses SAI and ANN:
# indexes created both ways, a prepared range-and-equality query without ALLOW FILTERING, paged,
# and a vector search (literals in the text: driver 3.25 has no vector type), checked against a
# client-side exact ranking. Prints one line per check, then DONE.
import math
import random
import sys
from cassandra.cluster import Cluster
from cassandra.query import SimpleStatement

host, port = sys.argv[1], int(sys.argv[2])
cluster = Cluster([host], port=port)
session = cluster.connect()
session.execute("CREATE KEYSPACE pysai WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
session.execute("CREATE TABLE pysai.items (id int PRIMARY KEY, category text, price int, embedding vector<float, 4>)")
session.execute("CREATE INDEX ON pysai.items (price) USING 'sai'")
session.execute("CREATE CUSTOM INDEX ON pysai.items (category) USING 'StorageAttachedIndex'")
session.execute("CREATE CUSTOM INDEX ON pysai.items (embedding) USING 'StorageAttachedIndex'"
                " WITH OPTIONS = {'similarity_function': 'euclidean'}")
rnd = random.Random(22)
vectors = {}
for i in range(200):
    v = [round(rnd.gauss(0, 1), 3) for _ in range(4)]
    vectors[i] = v
    session.execute("INSERT INTO pysai.items (id, category, price, embedding) VALUES (%d, 'c%d', %d, [%s])"
                    % (i, i % 3, i, ", ".join(repr(x) for x in v)))

ps = session.prepare("SELECT id FROM pysai.items WHERE price >= ? AND price < ? AND category = ?")
ps.fetch_size = 7
got = sorted(r.id for r in session.execute(ps, (40, 100, 'c1')))
want = [i for i in range(40, 100) if i % 3 == 1]
assert got == want, (got, want)
print("SAI %d rows" % len(got))

q = [0.5, -0.25, 1.0, 0.0]
rows = session.execute("SELECT id, similarity_euclidean(embedding, [%s]) AS s FROM pysai.items"
                       " ORDER BY embedding ANN OF [%s] LIMIT 5" % (", ".join(map(repr, q)), ", ".join(map(repr, q)))).all()
ids = [r.id for r in rows]
exact = sorted(vectors, key=lambda i: sum((a - b) ** 2 for a, b in zip(vectors[i], q)))[:5]
assert ids == exact, (ids, exact)
for r in rows:
    d = sum((a - b) ** 2 for a, b in zip(vectors[r.id], q))
    assert math.isclose(r.s, 1 / (1 + d), rel_tol=1e-4), (r.s, d)
print("ANN %s" % ids)

try:
    session.execute("SELECT id FROM pysai.items ORDER BY embedding ANN OF [1.0, 0.0, 0.0, 0.0]")
    raise AssertionError("ANN without LIMIT accepted")
except Exception as e:
    assert "Top-K queries must have a limit specified" in str(e), e
    print("REFUSED %s" % type(e).__name__)
print("DONE")
cluster.shutdown()
