// A bare Fastify server with one POST route, for `npm run bench:api` to measure next to the real server:
// what the framework, JSON parsing and Node's HTTP cost alone on this machine. No plugins, no logging.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/yewu/bare', async () => ({ code: 200, msg: 'Success', data: { ok: true } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
