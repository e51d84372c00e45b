// Node.js cassandra-driver against a Cassette node: default settings (it proposes its highest
// protocol version and downgrades), then write and read back. Usage: node node_driver_check.js HOST PORT
const cassandra = require('cassandra-driver');
const [host, port] = [process.argv[2], Number(process.argv[3])];
const client = new cassandra.Client({contactPoints: [host + ':' + port], localDataCenter: 'datacenter1',
  socketOptions: {connectTimeout: 10000, readTimeout: 10000}});
(async () => {
  await client.connect();
  const local = await client.execute('SELECT release_version FROM system.local');
  if (local.first().release_version !== '5.0.4') throw new Error('release_version ' + local.first().release_version);
  await client.execute('INSERT INTO ks.kv (k, v) VALUES (?, ?)', [8001, 'simple'], {hints: ['int', 'text']});
  await client.execute('INSERT INTO ks.kv (k, v) VALUES (?, ?)', [8002, 'prepared'], {prepare: true});
  const row = await client.execute('SELECT v FROM ks.kv WHERE k = ?', [8002], {prepare: true});
  if (row.first().v !== 'prepared') throw new Error('read back ' + row.first().v);
  const row2 = await client.execute('SELECT v FROM ks.kv WHERE k = ?', [8001], {prepare: true});
  if (row2.first().v !== 'simple') throw new Error('read back ' + row2.first().v);
  console.log('OK', client.controlConnection.protocolVersion);
  await client.shutdown();
})().catch(async (e) => {
  console.error('FAILED', e);
  process.exit(1);
});
