// A TCP proxy in front of a server, to take one client's network away: `cut()` stops listening and drops
// every connection (the client sees its link die and then "connection refused"), `restore()` listens again
// on the same port. Each accepted connection is piped to a fresh connection to the target.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  readonly cutOff: boolean;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | undefined;
  let boundPort = port;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const onConnection = (client: Socket) => {
    accepted += 1;
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    // Either side failing or ending takes the other down, as a broken link would.
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = async () => {
    const s = createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(boundPort, '127.0.0.1', () => {
        s.off('error', reject);
        const address = s.address();
        boundPort = typeof address === 'object' && address ? address.port : boundPort;
        resolve();
      });
    });
    server = s;
  };

  const stop = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await listen();
  return {
    get port() {
      return boundPort;
    },
    get accepted() {
      return accepted;
    },
    get cutOff() {
      return server === undefined;
    },
    cut: stop,
    restore: async () => {
      if (!server) await listen();
    },
    close: stop,
  };
}
