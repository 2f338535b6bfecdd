// The one address policy of requests made on a tenant's behalf: every form of a loopback, link-local, metadata,
// unspecified, multicast, reserved, private or this-server address is refused, written as a literal and as a
// host name resolving to it, for webhooks and cameras alike through their real calls (the refusal in the
// caller's language, nothing saved); a webhook delivery connects to exactly the address that was checked.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, layoutS, type Language } from '@genset/protocol';
import {
  classifyAddress,
  createAddressPolicy,
  type OutboundRefusal,
  type OutboundTarget,
} from '../src/lib/address-policy.ts';
import { requestPinned } from '../src/lib/outbound-http.ts';
import { createCameraAddresses } from '../src/modules/video/camera-address.ts';
import { DEMO_CAMERA_PATH, startDemoCamera } from '../src/modules/video/demo-camera.ts';
import { hlsArguments } from '../src/modules/video/ffmpeg.ts';
import { FFMPEG as FFMPEG_PROGRAM, programForTests } from '../../../scripts/system-programs.ts';
import { translate } from '../src/i18n/messages.ts';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

/** [how it is written in an address, the address a name resolves to, what the policy says without private]. */
const FORMS: [string, string, OutboundRefusal | null][] = [
  ['127.0.0.1', '127.0.0.1', 'private'],
  ['127.1.2.3', '127.1.2.3', 'private'],
  ['[::1]', '::1', 'private'],
  ['169.254.169.254', '169.254.169.254', 'reserved'],
  ['169.254.1.1', '169.254.1.1', 'reserved'],
  ['[fe80::1]', 'fe80::1', 'reserved'],
  ['100.100.100.200', '100.100.100.200', 'reserved'],
  ['[fd00:ec2::254]', 'fd00:ec2::254', 'reserved'],
  ['0.0.0.0', '0.0.0.0', 'reserved'],
  ['[::]', '::', 'reserved'],
  ['224.0.0.1', '224.0.0.1', 'reserved'],
  ['[ff02::1]', 'ff02::1', 'reserved'],
  ['255.255.255.255', '255.255.255.255', 'reserved'],
  ['240.0.0.1', '240.0.0.1', 'reserved'],
  ['192.0.2.2', '192.0.2.2', 'reserved'],
  ['[::ffff:127.0.0.1]', '::ffff:127.0.0.1', 'private'],
  ['[::ffff:169.254.169.254]', '::ffff:169.254.169.254', 'reserved'],
  ['[::ffff:c000:202]', '::ffff:c000:202', 'reserved'],
  ['[::ffff:10.0.0.1]', '::ffff:10.0.0.1', 'private'],
  ['[::127.0.0.1]', '::7f00:1', 'reserved'],
  ['[::169.254.169.254]', '::a9fe:a9fe', 'reserved'],
  ['[64:ff9b::a9fe:a9fe]', '64:ff9b::a9fe:a9fe', 'reserved'],
  ['[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1', 'private'],
  ['[64:ff9b:1::a9fe:a9fe]', '64:ff9b:1::a9fe:a9fe', 'reserved'],
  ['[2002:a9fe:a9fe::1]', '2002:a9fe:a9fe::1', 'reserved'],
  ['[2002:7f00:1::]', '2002:7f00:1::', 'private'],
  ['[2002:c0a8:101::1]', '2002:c0a8:101::1', 'private'],
  ['[::ffff:0:a9fe:a9fe]', '::ffff:0:a9fe:a9fe', 'reserved'],
  ['[::ffff:0:7f00:1]', '::ffff:0:7f00:1', 'private'],
  ['[2001::1]', '2001::1', 'reserved'],
  ['10.1.2.3', '10.1.2.3', 'private'],
  ['172.16.5.4', '172.16.5.4', 'private'],
  ['172.31.255.1', '172.31.255.1', 'private'],
  ['192.168.1.1', '192.168.1.1', 'private'],
  ['100.64.0.1', '100.64.0.1', 'private'],
  ['[fc00::1]', 'fc00::1', 'private'],
  ['[fd12:3456::1]', 'fd12:3456::1', 'private'],
  // reachable by anyone: allowed
  ['93.184.215.14', '93.184.215.14', null],
  ['172.32.0.1', '172.32.0.1', null],
  ['[2606:4700:4700::1111]', '2606:4700:4700::1111', null],
  ['[64:ff9b::5db8:d70e]', '64:ff9b::5db8:d70e', null],
  ['[2002:5db8:d70e::1]', '2002:5db8:d70e::1', null],
];

/** Each form as a host name of its own: `form-<n>.example.test`. */
const NAMES = new Map(FORMS.map(([, address], i) => [`form-${i}.example.test`, [address]]));
NAMES.set('mixed.example.test', ['93.184.215.14', '127.0.0.1']);
NAMES.set('machine.example.test', ['93.184.215.99']);

const resolver = async (host: string) => {
  const found = NAMES.get(host);
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

describe('the address policy', () => {
  const policy = createAddressPolicy({
    ownPorts: () => [8080, 1883],
    resolve: resolver,
    ownAddresses: () => ['127.0.0.1', '::1', '93.184.215.99'],
  });

  it.each(FORMS.map(([written, address, why], i) => ({ written, address, why, i })))(
    '$written: $why (literal and as a name)',
    async ({ written, why, i }) => {
      for (const url of [`http://${written}:9000/x`, `rtsp://${written}/live`, `http://form-${i}.example.test/x`]) {
        const checked = await policy.check(url, { allowPrivate: false });
        expect(checked.ok ? null : checked.reason, url).toBe(why);
      }
    },
  );

  it('judges the text of each address as the URL parser writes it', () => {
    for (const [written, address, why] of FORMS) {
      const host = new URL(`http://${written}/`).hostname;
      const kind = classifyAddress(host);
      expect(kind === 'reserved' ? 'reserved' : kind === 'public' ? null : 'private', written).toBe(why);
      expect(classifyAddress(address), address).toBe(kind);
    }
  });

  it('allows private and loopback addresses only where the use allows them; never reserved ones or the server', async () => {
    for (const [written, , why] of FORMS) {
      const checked = await policy.check(`http://${written}:9000/`, { allowPrivate: true });
      expect(checked.ok ? null : checked.reason, written).toBe(why === 'private' ? null : why);
    }
    for (const url of ['http://127.0.0.1:8080/', 'http://[::1]:1883/', 'http://machine.example.test:8080/']) {
      const checked = await policy.check(url, { allowPrivate: true });
      expect(checked.ok ? null : checked.reason, url).toBe('self');
    }
    // this machine's own public address is local too
    const own = await policy.check('http://machine.example.test:9000/', { allowPrivate: false });
    expect(own.ok ? null : own.reason).toBe('private');
  });

  it('checks every address a name resolves to; an unknown name is refused', async () => {
    const mixed = await policy.check('http://mixed.example.test/', { allowPrivate: false });
    expect(mixed.ok ? null : mixed.reason).toBe('private');
    const unknown = await policy.check('http://nowhere.invalid/', { allowPrivate: false });
    expect(unknown.ok ? null : unknown.reason).toBe('unresolved');
    // with DNS itself: localhost is loopback
    const dns = createAddressPolicy({ ownPorts: () => [] });
    const local = await dns.check('http://localhost:9000/', { allowPrivate: false });
    expect(local.ok ? null : local.reason).toBe('private');
  });

  it('answers the checked address to connect to, the name kept', async () => {
    const i = FORMS.findIndex(([w]) => w === '[2606:4700:4700::1111]');
    const checked = await policy.check(`rtsp://form-${i}.example.test:8554/live?ch=1`, { allowPrivate: false });
    expect(checked.ok && checked.target).toMatchObject({
      host: `form-${i}.example.test`,
      address: '2606:4700:4700::1111',
      family: 6,
      port: 8554,
    });
    expect(checked.ok && checked.target.pinned.href).toBe('rtsp://[2606:4700:4700::1111]:8554/live?ch=1');
  });
});

describe('refused through the real calls', () => {
  let t: TestApp;
  let manager: string;
  let setToken: string;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: '0', CAMERA_ALLOW_PRIVATE: '0' }, { resolveHost: resolver });
    manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    const set = await call(t.app, 'POST', '/genset/add', {
      token: manager,
      body: { name: 'Policy yard', protocolKey: layoutS.key },
    });
    setToken = set.data.token;
  });
  afterAll(async () => t.close());

  const webhooks = async () =>
    (await t.app.database.db.selectFrom('webhook').select('url').execute()).map((r) => r.url);
  const cameras = async () => (await t.app.database.db.selectFrom('camera').select('url').execute()).map((r) => r.url);
  const WEBHOOK_KEYS: Record<OutboundRefusal, string> = {
    self: 'webhook.self',
    private: 'webhook.private',
    reserved: 'webhook.reserved',
    unresolved: 'webhook.unresolved',
  };
  const CAMERA_RULES: Record<OutboundRefusal, string> = {
    self: 'validation.cameraSelf',
    private: 'validation.cameraPrivate',
    reserved: 'validation.cameraReserved',
    unresolved: 'validation.cameraUnresolved',
  };

  it('refuses every form for webhooks and cameras, literal and as a name, in the caller’s language; saves nothing', async () => {
    const hooksBefore = await webhooks();
    const camerasBefore = await cameras();
    const port = (t.app.server.address() as AddressInfo | null)?.port ?? t.config.port;
    const cases: [string, OutboundRefusal][] = [];
    FORMS.forEach(([written, , why], i) => {
      if (!why) return;
      cases.push([`http://${written}:9000/x`, why], [`http://form-${i}.example.test/x`, why]);
    });
    cases.push(
      ['http://mixed.example.test/x', 'private'],
      ['http://nowhere.invalid/x', 'unresolved'],
      ['http://localhost/x', 'unresolved'], // the test's resolver knows no localhost: nothing reaches DNS
      [`http://127.0.0.1:${port}/yewu/user/info`, 'self'],
    );
    for (const [n, [url, why]] of cases.entries()) {
      const lang = LANGUAGES[n % LANGUAGES.length] as Language;
      const hook = await call(t.app, 'POST', '/webhook/save', {
        token: manager,
        lang,
        body: { name: 'x', url, events: ['alarm.raised'] },
      });
      expect(hook.code, `${url} webhook`).toBe(400);
      expect(hook.data.fields.url, `${url} webhook`).toContain(translate(lang, WEBHOOK_KEYS[why]));
      const camera = await call(t.app, 'POST', '/video/add', {
        token: manager,
        lang,
        body: { token: setToken, name: 'x', url },
      });
      expect(camera.code, `${url} camera`).toBe(400);
      expect(camera.data.fields.url, `${url} camera`).toBe(
        translate(lang, 'errors.validation', {
          field: translate(lang, 'fields.cameraUrl'),
          rule: translate(lang, CAMERA_RULES[why]),
        }),
      );
      const rtsp = await call(t.app, 'POST', '/video/add', {
        token: manager,
        lang,
        body: { token: setToken, name: 'x', url: url.replace(/^http:/, 'rtsp:') },
      });
      expect(rtsp.code, `${url} rtsp camera`).toBe(400);
    }
    expect(await webhooks()).toEqual(hooksBefore);
    expect(await cameras()).toEqual(camerasBefore);
  });

  it('refuses a camera moved to a refused address; takes one reachable by anyone', async () => {
    const ok = await call(t.app, 'POST', '/video/add', {
      token: manager,
      body: { token: setToken, name: 'Gate', url: 'rtsp://93.184.215.14:554/live' },
    });
    expect(ok.code, ok.msg).toBe(200);
    for (const url of ['http://127.0.0.1:8081/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/']) {
      const moved = await call(t.app, 'POST', '/video/update', {
        token: manager,
        lang: 'zh-CN',
        body: { token: setToken, id: ok.data.id, url },
      });
      expect(moved.code, url).toBe(400);
      expect(moved.msg).toContain(translate('zh-CN', 'fields.cameraUrl'));
    }
    expect(await cameras()).toEqual(['rtsp://93.184.215.14:554/live']);
    const hook = await call(t.app, 'POST', '/webhook/save', {
      token: manager,
      body: { name: 'Public', url: 'https://93.184.215.14/hook', events: ['alarm.raised'] },
    });
    expect(hook.code, hook.msg).toBe(200);
  });
});

describe('a webhook delivery', () => {
  /** A receiver on 127.0.0.1 that notes each request's Host header and the address it came in on. */
  async function receiver() {
    const got: { headers: IncomingHttpHeaders; local: string | undefined }[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        got.push({ headers: req.headers, local: req.socket.localAddress });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { got, server, port: (server.address() as AddressInfo).port };
  }

  it('connects to the address checked, with the name as Host, and resolves the name once', async () => {
    const r = await receiver();
    const target: OutboundTarget = {
      host: 'hooks.invalid',
      address: '127.0.0.1',
      family: 4,
      port: r.port,
      pinned: new URL(`http://127.0.0.1:${r.port}/hook`),
    };
    // .invalid never resolves (RFC 6761): an own lookup of the name would fail
    const res = await requestPinned(new URL(`http://hooks.invalid:${r.port}/hook`), target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs: 5000,
    });
    expect(res).toEqual({ status: 200, remoteAddress: '127.0.0.1' });
    expect(r.got[0]!.headers.host).toBe(`hooks.invalid:${r.port}`);
    r.server.close();
  });

  it('goes to the first answer of a name that answers a forbidden address the next time (DNS rebinding)', async () => {
    const r = await receiver();
    const answers: string[][] = [];
    let asked = 0;
    // the name answers 127.0.0.1 when the webhook is saved and when it is sent, then a metadata address
    const rebinding = async (host: string) => {
      if (host !== 'rebind.invalid') throw new Error('ENOTFOUND');
      asked += 1;
      const answer = asked <= 2 ? ['127.0.0.1'] : ['169.254.169.254'];
      answers.push(answer);
      return answer;
    };
    const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: '1' }, { resolveHost: rebinding });
    try {
      const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
      const saved = await call(t.app, 'POST', '/webhook/save', {
        token: manager,
        body: { name: 'Rebinding', url: `http://rebind.invalid:${r.port}/hook`, events: ['alarm.raised'] },
      });
      expect(saved.code, saved.msg).toBe(200);
      const { companyId } = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info as {
        companyId: number;
      };
      await t.app.notifications.notify({
        kind: 'alarm.raised',
        companyId,
        gensetId: null,
        audience: { companyId, permission: 'nobody.has.this' },
        facts: { code: 'emergency_stop', level: 'shutdown', title: { 'en-US': 'Emergency stop' }, ts: Date.now() },
      });
      const deadline = Date.now() + 10_000;
      while (!r.got.length && Date.now() < deadline) {
        await t.app.notifications.engine.runOnce();
        if (!r.got.length) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const rows = await t.app.database.db.selectFrom('notification_delivery').selectAll().execute();
      expect(rows.map((d) => [d.channel, d.status, d.last_error])).toEqual([['webhook', 'sent', null]]);
      expect(r.got).toHaveLength(1);
      expect(r.got[0]!.headers.host).toBe(`rebind.invalid:${r.port}`);
      expect(r.got[0]!.local).toBe('127.0.0.1');
      // saved once, sent once: the connection asked no one again
      expect(answers).toEqual([['127.0.0.1'], ['127.0.0.1']]);
      const delivery = await t.app.database.db
        .selectFrom('notification_delivery')
        .select(['status', 'response_status'])
        .where('webhook_id', '=', saved.data.id)
        .executeTakeFirstOrThrow();
      expect(delivery).toEqual({ status: 'sent', response_status: 200 });
      // the next delivery finds the name rebound and is refused before any connection
      const policyNow = await t.app.outbound.check(`http://rebind.invalid:${r.port}/hook`, { allowPrivate: true });
      expect(policyNow.ok ? null : policyNow.reason).toBe('reserved');
    } finally {
      await t.close();
      r.server.close();
    }
  });
});

describe('a camera stream', () => {
  const FFMPEG = programForTests(FFMPEG_PROGRAM, 'camera streaming through ffmpeg');

  it('gives ffmpeg the checked address, the name as the Host header only', async () => {
    const addresses = createCameraAddresses({
      policy: createAddressPolicy({ ownPorts: () => [], resolve: async () => ['93.184.215.14'] }),
      allowPrivate: false,
      trusted: () => null,
    });
    const input = await addresses.input('http://cam.example.test:8554/live.ts', { username: 'u', password: 'p w' });
    expect(input.url.href).toBe('http://u:p%20w@93.184.215.14:8554/live.ts');
    expect(input.hostHeader).toBe('cam.example.test:8554');
    const args = hlsArguments(input, '/tmp/x', true);
    expect(args).toContain('http://u:p%20w@93.184.215.14:8554/live.ts');
    expect(args[args.indexOf('-headers') + 1]).toBe('Host: cam.example.test:8554\r\n');
    expect(args.filter((a) => a.includes('cam.example.test'))).toHaveLength(1);
    const rtsp = await addresses.input('rtsp://cam.example.test/live', null);
    // (an RTSP camera is opened through a relay that connects to the checked address and port only)
    expect(rtsp).toEqual({ url: new URL('rtsp://93.184.215.14/live'), rtsp: { address: '93.184.215.14', port: 554 } });
    expect(hlsArguments(rtsp, '/tmp/x', true)).not.toContain('-headers');
  });

  it.skipIf(!FFMPEG)(
    'plays a camera named by a host name ffmpeg could not resolve; refuses it once the name rebinds',
    async () => {
      const asked: string[] = [];
      const resolveHost = async (host: string) => {
        asked.push(host);
        if (host === 'cam.invalid') return ['127.0.0.1'];
        // saved while it answered 127.0.0.1, metadata when watched
        if (host === 'rebound.invalid')
          return asked.filter((h) => h === host).length === 1 ? ['127.0.0.1'] : ['169.254.169.254'];
        throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      };
      const t = await createTestApp({ CAMERA_ALLOW_PRIVATE: '1' }, { resolveHost });
      const source = await startDemoCamera({ ffmpeg: FFMPEG!, log: t.app.log });
      try {
        const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
        const set = await call(t.app, 'POST', '/genset/add', {
          token: manager,
          body: { name: 'Named camera', protocolKey: layoutS.key },
        });
        const port = new URL(source.url).port;
        const ids: number[] = [];
        for (const host of ['cam.invalid', 'rebound.invalid']) {
          const added = await call(t.app, 'POST', '/video/add', {
            token: manager,
            body: { token: set.data.token, name: host, url: `http://${host}:${port}${DEMO_CAMERA_PATH}` },
          });
          expect(added.code, added.msg).toBe(200);
          ids.push(added.data.id);
        }
        const watched = await call(t.app, 'POST', '/video/watch', {
          token: manager,
          body: { token: set.data.token, id: ids[0] },
        });
        expect(watched.code, watched.msg).toBe(200);
        const refused = await call(t.app, 'POST', '/video/watch', {
          token: manager,
          lang: 'tr-TR',
          body: { token: set.data.token, id: ids[1] },
        });
        expect(refused.code).toBe(502);
        expect(refused.msg).toBe(translate('tr-TR', 'video.addressRefused'));
        // each name asked once when saved and once when watched
        expect(asked).toEqual(['cam.invalid', 'rebound.invalid', 'cam.invalid', 'rebound.invalid']);
      } finally {
        await t.close();
        await source.close();
      }
    },
    60_000,
  );
});
