// The one PostgreSQL cluster of a test run (scripts/test.sh's corpus tier): started here,
// its URL written to the file named by the first argument, and destroyed on SIGTERM or
// SIGINT. Tests given its URL in DEVS_TEST_POSTGRES take a role and a schema of their own
// in it (startPostgres in ./postgres.mjs) instead of starting a cluster each.
import { writeFileSync } from 'node:fs';
import { startPostgres } from './postgres.mjs';

const [urlFile] = process.argv.slice(2);
if (!urlFile) throw new Error('usage: node pkg/test/postgres-cluster.mjs URL_FILE');
const server = await startPostgres({ own: true });
const stop = async () => {
  await server.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
writeFileSync(urlFile, `${server.connectionString}\n`);
// Kept alive until a signal: the server's own process is unreferenced.
setInterval(() => {}, 1 << 30);
