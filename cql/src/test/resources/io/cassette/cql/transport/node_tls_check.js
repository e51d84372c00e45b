// Node.js cassandra-driver over TLS: trusts CA_PEM, presents CERT_PEM/KEY_PEM when given, and
// checks the node's name (its certificate names 127.0.0.1). Usage:
//   node node_tls_check.js HOST PORT CA_PEM [CERT_PEM KEY_PEM]
const fs = require('fs');
const cassandra = require('cassandra-driver');
const [host, port, ca, cert, key] = process.argv.slice(2);
const sslOptions = {ca: [fs.readFileSync(ca)], rejectUnauthorized: true};
if (cert) {
  sslOptions.cert = fs.readFileSync(cert);
  sslOptions.key = fs.readFileSync(key);
}
const client = new cassandra.Client({contactPoints: [host + ':' + port], localDataCenter: 'datacenter1',
  sslOptions, socketOptions: {connectTimeout: 10000, readTimeout: 10000}});
(async () => {
  await client.connect();
  const local = await client.execute('SELECT release_version FROM system.local');
  console.log('OK', local.first().release_version);
  await client.shutdown();
})().catch(async (e) => {
  console.error('FAILED', e.message);
  for (const [, err] of Object.entries(e.innerErrors || {})) console.error('  ', String(err));
  process.exit(1);
});
