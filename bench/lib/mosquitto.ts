// A Mosquitto of the benchmark's own (Debian's /usr/sbin/mosquitto) on a free port, for the several-instance
// setup: anonymous on 127.0.0.1, nothing persisted, no cap on queued messages (the default of 1000 per client
// would drop a burst meant for the servers' shared subscription).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './proc.ts';
import { MOSQUITTO, programPath } from '../../scripts/system-programs.ts';

export const MOSQUITTO_BIN = programPath(MOSQUITTO) ?? '/usr/sbin/mosquitto';

export async function startMosquitto() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 0',
      'max_inflight_messages 0',
      'max_connections -1',
      '',
    ].join('\n'),
  );
  const child = spawn(MOSQUITTO_BIN, ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) {
      return {
        port,
        pid: child.pid!,
        command: `${MOSQUITTO_BIN} -c ${conf}`,
        async stop() {
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
  }
  child.kill('SIGKILL');
  throw new Error('mosquitto did not start');
}
