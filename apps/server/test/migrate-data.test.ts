// `npm run migrate-data`: a SQLite database that the real server filled (accounts, sessions, codes, throttles,
// sets and modules, samples over several months through the broker, alarms, rollups, commands, item choices,
// subscriptions …) is copied into a fresh PostgreSQL schema and compared table by table; the server then runs
// on the copy. A target with data is refused unless --force. Needs TEST_DATABASE_URL (skipped otherwise).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { REPO_ROOT, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { giveDemoMaintenance } from '../src/modules/maintenance/demo.ts';
import { addMonths, listPartitions, monthStart, partitionName } from '../src/db/partitions.ts';
import { migrateData, type MigrateDataSummary } from '../src/tools/migrate-data.ts';
import { PG_URL, call, login, type TestApp } from './helpers.ts';
import { DAY, RUNNING, insertAlarm, moduleFor, newSet } from './support/history-data.ts';

const HOUR = 3_600_000;

function testEnv(dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DEMO: '1',
    DEMO_FLEET: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    AUTH_IP_MAX_FAILURES: '1000',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    CAMERA_ALLOW_PRIVATE: '1',
    COMMAND_TIMEOUT_MS: '3000',
    WEB_DIST: join(dataDir, 'no-web'),
  };
}

async function pgQuery(text: string) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Every row of a table, in one order on both databases (text keys sort differently in each). */
async function rowsOf(db: Kysely<unknown>, table: string) {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
  return rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort()))).sort();
}

describe.skipIf(!PG_URL)('migrating the embedded SQLite database to PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-migrate-'));
  const file = join(dataDir, 'console.db');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const now = Date.now();
  const months = [addMonths(monthStart(now), -3), addMonths(monthStart(now), -1), monthStart(now)];
  let token = '';
  let tables: string[] = [];
  let summary: MigrateDataSummary;

  beforeAll(async () => {
    // The source: the real server on a SQLite file, used the way people and modules use it.
    const config = loadConfig(testEnv(dataDir, file));
    const app = await buildApp({ config });
    await app.ready();
    const t: TestApp = {
      app,
      config,
      dataDir,
      close: () => app.close(),
      restart: () => Promise.reject(new Error('a source not restarted')),
    };
    const db = app.database.db;
    try {
      const manager = await login(app, 'manager@example.com', 'Demo#2026');
      await call(app, 'POST', '/user/login', { body: { username: 'operator@example.com', password: 'Wrong#2026' } });
      await call(app, 'POST', '/sendMessage', { body: { username: 'manager@example.com', purpose: 'login' } });
      const info = (await call(app, 'GET', '/user/info', { token: manager })).data.info;
      const companyId = info.companyId as number;
      const set = await newSet(t, { companyId, ownerUserId: info.id as number, name: 'Copied set' });
      token = set.token;

      // Samples over three months through the broker: rollups, latest values, status changes and an alarm.
      const m = await moduleFor(t, set);
      m.module.client.on('message', (topic, payload) => {
        if (!topic.endsWith('/request')) return;
        const req = JSON.parse(payload.toString()) as { id: string };
        void m.module.publish('reply', { id: req.id, ok: true });
      });
      for (const [i, month] of months.entries()) {
        await m.send({ ...RUNNING, gen_kw: 100 + i }, month + 5 * HOUR);
        await m.send({ ...RUNNING, gen_kw: 110 + i }, month + 6 * HOUR);
      }
      await m.send({ ...RUNNING, fuel_level: 8, alarm_low_fuel_warning: 1, common_warning: 1 }, now - 2 * HOUR);
      await m.send({ ...RUNNING, fuel_level: 60 }, now - HOUR);
      await insertAlarm(t, set.id, { code: 'low_fuel_warning', level: 'warning', start: now - 3 * HOUR, end: null });

      const action = await call(app, 'POST', '/devicedata/sendaction', {
        token: manager,
        body: { token: set.token, action: 'start', password: 'Demo#2026' },
      });
      expect(action.code).toBe(200);
      const edit = await call(app, 'POST', '/deviceitems/edit', {
        token: manager,
        body: { token: set.token, items: ['gen_kw', 'fuel_level'] },
      });
      expect(edit.code).toBe(200);
      const period = { from: '2026-01-01', to: '2026-01-31' };
      const filled = await call(app, 'POST', '/data/dieselGeneratorReport', {
        token: manager,
        body: { token: set.token, ...period },
      });
      const report = await call(app, 'POST', '/baobiao/add', {
        token: manager,
        body: { token: set.token, type: 1, ...period, form: filled.data.form },
      });
      expect(report.code).toBe(200);
      const camera = await call(app, 'POST', '/video/add', {
        token: manager,
        body: { token: set.token, name: 'Gate', url: 'rtsp://10.0.0.7/live', username: 'site', password: 'Cam#2026' },
      });
      expect(camera.code).toBe(200);
      const partner = await newSet(t, { companyId, ownerUserId: info.id as number, name: 'Copied partner set' });
      const group = await call(app, 'POST', '/genset/savedevxml', {
        token: manager,
        body: { name: 'Copied bus', kind: 'parallel', members: [set.token, partner.token] },
      });
      expect(group.code).toBe(200);
      // a command to the whole group: its job and each set's part in it
      const groupCommand = await call(app, 'POST', '/genset/groupCommand', {
        token: manager,
        body: { token: group.data.token, action: 'stop', password: 'Demo#2026' },
      });
      expect(groupCommand.code, groupCommand.msg).toBe(200);
      // (the module answers both sets before it goes)
      for (let tries = 0; tries < 200; tries++) {
        const job = await call(app, 'POST', '/genset/groupCommandJob', {
          token: manager,
          body: { token: group.data.token },
        });
        if (job.data?.state === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await m.close();

      const viewer = await db
        .selectFrom('users')
        .select('id')
        .where('account', '=', 'viewer@example.com')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('subscription')
        .values({ genset_id: set.id, user_id: viewer.id, rights: 'view', created_at: now })
        .execute();
      await db.insertInto('company_host').values({ host: 'console.example.com', company_id: companyId }).execute();
      await db
        .insertInto('department')
        .values({ company_id: companyId, parent_id: null, name: 'Service', sort: 1, created_at: now })
        .execute();
      // A role with chosen sets, an invitation and the application it brought: a row in each table.
      const role = await db
        .selectFrom('role')
        .select('id')
        .where('company_id', '=', companyId)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('role_target').values({ role_id: role.id, kind: 'set', target_id: set.id }).execute();
      const invitation = await db
        .insertInto('invitation')
        .values({
          company_id: companyId,
          code: 'copiedinvite0001',
          role_id: role.id,
          department_id: null,
          max_uses: 5,
          uses: 1,
          expires_at: now + 86_400_000,
          revoked_at: null,
          created_by: info.id as number,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('member_application')
        .values({
          company_id: companyId,
          invitation_id: invitation.id,
          invite_code: 'copiedinvite0001',
          user_id: viewer.id,
          status: 'pending',
          applied_at: now,
          reviewed_at: null,
          reviewed_by: null,
          role_id: null,
          department_id: null,
        })
        .execute();
      // A set's service life, its position and fence, its SIM card and a firmware upgrade: a row in each table.
      const me = info.id as number;
      await db
        .insertInto('transfer')
        .values({
          genset_id: partner.id,
          from_user_id: me,
          to_user_id: viewer.id,
          status: 'untreated',
          keep_subscription: 'view',
          remark: 'Rental ends',
          created_at: now,
          processed_at: null,
        })
        .execute();
      const repair = await db
        .insertInto('repair_request')
        .values({
          token: 'copiedrepair0001',
          genset_id: set.id,
          requester_id: me,
          contact: 'Ana',
          phone: '+34600000000',
          address: 'Quarry gate',
          description: 'Smoke at start',
          state: 'submitted',
          pictures: '[]',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('repair_event')
        .values({ request_id: repair.id, state: 'submitted', note: '', user_id: me, author: 'Ana', created_at: now })
        .execute();
      const event = await db
        .insertInto('notification_event')
        .values({
          kind: 'maintenance.due',
          company_id: companyId,
          genset_id: set.id,
          payload: '{"audience":{"set":true},"facts":{}}',
          dedupe_key: 'copied:1',
          created_at: now,
          processed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('notification')
        .values({
          user_id: me,
          event_id: event.id,
          kind: 'maintenance.due',
          level: 'info',
          genset_id: set.id,
          payload: '{}',
          created_at: now,
          read_at: null,
        })
        .execute();
      const hook = await db
        .insertInto('webhook')
        .values({
          company_id: companyId,
          name: 'Dispatch',
          url: 'https://hooks.example.com/genset',
          secret: 'whsec_copied',
          events: '["alarm.raised"]',
          enabled: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('notification_delivery')
        .values({
          event_id: event.id,
          company_id: companyId,
          user_id: null,
          webhook_id: hook.id,
          channel: 'webhook',
          target: 'https://hooks.example.com/genset',
          group_key: 'copied',
          payload: '{}',
          status: 'sent',
          not_before: now,
          locked_until: null,
          last_error: null,
          response_status: 200,
          created_at: now,
          sent_at: now,
        })
        .execute();
      // a threshold rule and the company's alarm policy
      await db
        .insertInto('alarm_rule')
        .values({
          company_id: companyId,
          name: 'Fuel low',
          item: 'fuel_level',
          op: 'below',
          threshold: 20,
          hysteresis: 5,
          delay_s: 60,
          level: 'warning',
          scope: 'fleet',
          targets: '[]',
          enabled: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('company_alarm_policy')
        .values({ company_id: companyId, hold_s: 90, escalate_after_s: 1800, escalate_to: `[${me}]`, updated_at: now })
        .execute();
      // its service plan as the demo gives one: an item and its open task
      await giveDemoMaintenance(
        db,
        [{ modemKey: set.modemKey, scenario: 'copied', fallback: { runHours: 350, hoursSinceService: 250 } }],
        now,
      );
      await db
        .insertInto('maintenance_template')
        .values({
          company_id: companyId,
          name: 'Small sets',
          model: 'S',
          items: '[]',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('maintenance_link')
        .values({
          genset_id: set.id,
          token_hash: 'copiedhash',
          created_by: me,
          created_at: now,
          expires_at: now + DAY,
          revoked_at: null,
        })
        .execute();
      await db
        .insertInto('position')
        .values({ genset_id: set.id, ts: now - HOUR, lat: 41.01, lon: 28.98, speed: 30, alt: null })
        .execute();
      await db
        .insertInto('set_position')
        .values({
          genset_id: set.id,
          ts: now - HOUR,
          lat: 41.01,
          lon: 28.98,
          speed: 30,
          stored_ts: now - HOUR,
          stored_lat: 41.01,
          stored_lon: 28.98,
          fence_state: 'inside',
        })
        .execute();
      await db
        .insertInto('geofence')
        .values({
          genset_id: set.id,
          shape: '{"type":"circle","center":{"lat":41,"lon":29},"radiusM":3000}',
          updated_at: now,
          updated_by: me,
        })
        .execute();
      await db
        .insertInto('sim_card')
        .values({
          iccid: '89860000000000009999',
          plan_mb: 500,
          start_day: 1,
          alarm_share: 80,
          last_ts: now,
          last_rx: 1000,
          last_tx: 500,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('sim_usage_day')
        .values({ iccid: '89860000000000009999', day: '2026-03-01', rx_bytes: 1000, tx_bytes: 500 })
        .execute();
      await db
        .insertInto('sim_usage_month')
        .values({ iccid: '89860000000000009999', month: '2026-03', rx_bytes: 1000, tx_bytes: 500 })
        .execute();
      const fw = await db
        .insertInto('ota_file')
        .values({
          company_id: companyId,
          name: 'Module firmware',
          version: '2.0.0',
          target: 'module',
          model: 'GW-4G',
          size: 1000,
          md5: '0'.repeat(32),
          sha256: '0'.repeat(64),
          stored_name: 'copied.bin',
          created_by: me,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const campaign = await db
        .insertInto('ota_campaign')
        .values({
          file_id: fw.id,
          company_id: companyId,
          concurrency: 2,
          window_start: null,
          window_end: null,
          created_by: me,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('ota_job')
        .values({
          campaign_id: campaign.id,
          file_id: fw.id,
          genset_id: set.id,
          modem_id: set.modemId,
          state: 'updated',
          progress: 100,
          reason: '',
          from_version: '1.0.0',
          request_id: null,
          download_token: null,
          created_at: now,
          started_at: now,
          updated_at: now,
          finished_at: now,
        })
        .execute();
      // An energy-storage station with its template, a tactic sent, a day's energy and a run record.
      const tariff = await app.sites.service.createTemplate({
        companyId,
        name: 'Copied tariff',
        body: {
          ranges: [
            { start: '08:00', end: '22:00', period: 'peak' },
            { start: '22:00', end: '08:00', period: 'valley' },
          ],
          prices: {
            sharp: { buy: 1.2, sell: 1.1 },
            peak: { buy: 1, sell: 0.9 },
            flat: { buy: 0.6, sell: 0.5 },
            valley: { buy: 0.3, sell: 0.2 },
          },
          powerKw: 100,
          chargeCutoffSoc: 95,
          dischargeCutoffSoc: 10,
          socMargin: 3,
          chargeInFlat: false,
          reversePower: { enabled: true, marginKw: 5 },
          demandControl: { enabled: false, limitKw: 0 },
        },
      });
      const station = await app.sites.service.createStation({
        companyId,
        name: 'Copied station',
        timeZone: 'Asia/Shanghai',
        capacityKwh: 215,
        ratingKw: 100,
        modemId: set.modemId,
        devices: [{ gensetId: set.id, role: 'pcs' }],
        templateId: tariff.id,
      });
      await db
        .insertInto('site_tactic')
        .values({
          site_id: station.id,
          version: 1,
          strategy: 'timeOfUse',
          template_id: tariff.id,
          template_version: tariff.version,
          body: '{}',
          user_id: me,
          account: 'manager@example.com',
          request_id: null,
          outcome: 'accepted',
          reason: '',
          created_at: now,
          finished_at: now,
        })
        .execute();
      const version = await db
        .selectFrom('price_template_version')
        .select('id')
        .where('template_id', '=', tariff.id)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('site_energy')
        .values({
          site_id: station.id,
          day: '2026-01-15',
          period: 'peak',
          template_version_id: version.id,
          charge_kwh: 0,
          discharge_kwh: 80.5,
          charge_cost: 0,
          discharge_income: 72.45,
        })
        .execute();
      await db
        .insertInto('site_run_record')
        .values({ site_id: station.id, ts: now, kind: 'tacticAccepted', version: 1, detail: '{}', created_at: now })
        .execute();
      await db
        .insertInto('push_subscription')
        .values({
          user_id: viewer.id,
          endpoint: 'https://push.example.com/send/abc',
          p256dh: 'BNc',
          auth: 'YXV0aA',
          label: 'Chrome · Android',
          created_at: now,
          last_success_at: null,
          failures: 0,
        })
        .execute();
      await db
        .insertInto('push_key')
        .values({ id: 1, public_key: 'BPub', private_key: 'priv', created_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      await app.devices.ingest.flush();

      const { rows } = await sql<{ name: string }>`select name from sqlite_master
        where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`.execute(db);
      tables = rows.map((r) => r.name);
    } finally {
      await app.close();
    }
    await pgQuery(`create schema ${schema}`);
  });

  afterAll(async () => {
    await pgQuery(`drop schema if exists ${schema} cascade`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts from a SQLite database with every table filled', async () => {
    const source = await openDatabase(file);
    try {
      const empty: string[] = [];
      for (const table of tables) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(source.db);
        if (Number(rows[0]!.n) === 0) empty.push(table);
      }
      expect(empty).toEqual([]);
      expect(tables.length).toBeGreaterThanOrEqual(23);
      expect(tables).toEqual(expect.arrayContaining(['sample', 'alarm', 'rollup_day', 'command', 'item_selection']));
    } finally {
      await source.close();
    }
  });

  it('copies every table, with the same rows, and counts them', async () => {
    const lines: string[] = [];
    summary = await migrateData({ from: file, to: PG_URL!, schema, batchSize: 3, log: (l) => lines.push(l) });
    expect(summary.tables.map((t) => t.table).sort()).toEqual(tables);
    for (const t of summary.tables) {
      expect(t.target, t.table).toBe(t.source);
      expect(t.source, t.table).toBeGreaterThan(0);
    }
    expect(lines).toHaveLength(tables.length);
    // Parents before the tables that refer to them.
    const order = summary.tables.map((t) => t.table);
    expect(order.indexOf('company')).toBeLessThan(order.indexOf('users'));
    expect(order.indexOf('modem')).toBeLessThan(order.indexOf('genset'));
    expect(order.indexOf('genset')).toBeLessThan(order.indexOf('subscription'));

    const source = await openDatabase(file);
    const target = await openDatabase(PG_URL!, { schema });
    try {
      for (const table of tables) {
        expect(await rowsOf(target.db as unknown as Kysely<unknown>, table), table).toEqual(
          await rowsOf(source.db as unknown as Kysely<unknown>, table),
        );
      }
      // The samples went into the partitions of their months.
      const names = (await listPartitions(target.db, 'sample')).map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(months.map((m) => partitionName('sample', m))));
      const inDefault = await sql<{ n: number }>`select count(*) as n from sample_default`.execute(target.db);
      expect(Number(inDefault.rows[0]!.n)).toBe(0);
      // Ids go on after the copied ones.
      const top = await target.db
        .selectFrom('genset')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const fresh = await target.db
        .insertInto('department')
        .values({ company_id: 1, parent_id: null, name: 'New', sort: 2, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const topDepartment = await source.db
        .selectFrom('department')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      expect(fresh.id).toBe(Number(topDepartment?.id) + 1);
      expect(Number(top?.id)).toBeGreaterThan(0);
      await target.db.deleteFrom('department').where('id', '=', fresh.id).execute();
    } finally {
      await source.close();
      await target.close();
    }
  });

  it('the server runs on the copy: the same accounts, sets, values and alarms', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'genset-migrated-'));
    const app = await buildApp({ config: loadConfig(testEnv(dir, PG_URL!)), dbSchema: schema });
    try {
      await app.ready();
      const manager = await login(app, 'manager@example.com', 'Demo#2026');
      const status = await call(app, 'POST', '/devicedata/getstatus', { token: manager, body: { token } });
      expect(status.code).toBe(200);
      expect(status.data).toMatchObject({ gsname: 'Copied set' });
      const current = await call(app, 'POST', '/alarm/current', { token: manager, body: { token } });
      expect(current.data.alarmnum).toBe(1);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a target that holds data unless --force, from the command line too', async () => {
    await expect(migrateData({ from: file, to: PG_URL!, schema })).rejects.toThrow(/not empty.*--force/);

    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/tools/migrate-data.ts', ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, INIT_CWD: REPO_ROOT },
      });
    const refused = run(['--from', file, '--to', PG_URL!, '--schema', schema]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('the target database is not empty');

    const forced = run(['--from', file, '--to', PG_URL!, '--schema', schema, '--force']);
    expect(forced.stderr).toBe('');
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain(`${tables.length} tables, ${summary.rows} rows copied and counted`);

    const usage = run(['--from', file]);
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain('--from and --to are required');
    const missing = run(['--from', join(dataDir, 'nothing.db'), '--to', PG_URL!]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('no SQLite database at');
  });
});
