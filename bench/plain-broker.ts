// A bare Aedes broker, for comparison with the server's embedded one: same library and version, same
// options as the server's, but no authentication, no topic rules and no ingestion attached. Started by
// bench/ingest.ts as a child process; listens on 127.0.0.1:$BENCH_BROKER_PORT until SIGTERM.
import { createServer } from 'node:net';
import { Aedes } from 'aedes';

const port = Number(process.env.BENCH_BROKER_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('BENCH_BROKER_PORT is required');

const broker = await Aedes.createBroker({ heartbeatInterval: 60_000, concurrency: 0 });
const server = createServer(broker.handle);
server.listen(port, '127.0.0.1');

const stop = () => {
  server.close();
  broker.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
