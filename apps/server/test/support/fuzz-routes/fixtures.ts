// What the known-good requests of the route fuzzing are made on: rows made for the one call that needs them (a
// throwaway user, a department, a role, an invitation and an application, a webhook, firmware files and upgrade
// jobs, repair requests, stations, templates, spare sets, handovers, maintenance items, templates and links,
// cameras, groups, reports and protocol drafts), made through the server's own calls where it has them, and the
// forms and bodies the calls take.
import fc from 'fast-check';
import sharp from 'sharp';
import {
  computeSign,
  DEFAULT_SIGN_SECRET,
  layoutEBms,
  layoutEMeter,
  layoutEPcs,
  layoutEPv,
  layoutS,
} from '@genset/protocol';
import { call, freshUser, login } from '../../helpers.ts';
import { createUser } from '../../../src/seed/base.ts';
import { TEMPLATE } from '../access-rows.ts';
import { connectFakeModule } from '../fake-module.ts';
import { answerRequests, type RawBody } from '../fuzz.ts';
import { PASSWORDS, ref, signed, type World } from './world.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The last week, whole days: what a report is prefilled over. */
export const REPORT_PERIOD = { from: day(-7), to: day(-1) };

/** A camera address nothing answers at. */
export const CAMERA_URL = 'http://127.0.0.1:9/stream';
export const UNKNOWN_LEASE = 'fuzz-lease-0123456789abcdef';

/** A picture for repair requests (made once). */
let repairPicture: Buffer | undefined;

/** The multipart form of a repair request on the company's own set, with one picture. */
export async function repairForm(w: World): Promise<RawBody> {
  repairPicture ??= await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03020' } })
    .jpeg()
    .toBuffer();
  const boundary = 'FuzzRepairBoundary';
  const fields = {
    token: String(w.refs['set.own']),
    contact: 'Fuzz',
    phone: '+1 555 0100',
    address: 'Test Road 1',
    description: 'Starts and stops.',
  };
  const text = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="pictures"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return {
    raw: Buffer.concat([Buffer.from(text + file), repairPicture, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A new repair request on the company's own set, with the name of its picture. */
export async function repairRequest(w: World): Promise<{ token: string; name: string }> {
  const form = await repairForm(w);
  const res = await w.t.app.inject({
    method: 'POST',
    url: '/yewu/baoxiu/add',
    headers: { ...signed(w.sessions.company), 'content-type': form.contentType },
    payload: form.raw,
  });
  const token = (res.json() as { data: { token: string } }).data.token;
  const detail = await call(w.t.app, 'GET', '/baoxiu/detail', { token: w.sessions.company, query: { token } });
  return { token, name: detail.data.pictureList[0].name as string };
}

/** A fresh user of the demo company, signed in: for the calls that end a session or change an account. */
export async function throwaway(w: World) {
  const user = await freshUser(w.t, { role: 'operator' });
  return { ...user, token: await login(w.t.app, user.account, user.password) };
}

/** A company as the platform administrator's form sends it. */
export const FUZZ_COMPANY = { name: 'Fuzz company', currency: 'EUR', timeZone: 'Europe/Berlin', hosts: [] as string[] };

/** A one-pixel PNG logo as a multipart form. */
export function logoForm(): RawBody {
  const boundary = 'FuzzLogoBoundary';
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  return {
    raw: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A department of the demo company, made for the call. */
export async function fuzzDepartment(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/dept/add', {
    token: w.sessions.company,
    body: { name: `Fuzz department ${w.n++}` },
  });
  return res.data.id as number;
}

/** A role of the demo company made for one call. */
export async function fuzzRole(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/role/save', {
    token: w.sessions.company,
    body: { name: `Fuzz role ${w.n++}`, permissions: ['genset:view'], dataScope: 'department' },
  });
  return res.data.id as number;
}

/** An invitation of the demo company made for one call. */
export async function fuzzInvite(w: World): Promise<{ id: number; code: string }> {
  const res = await call(w.t.app, 'POST', '/invite/create', {
    token: w.sessions.company,
    body: { expiresAt: Date.now() + 3_600_000, maxUses: 5 },
  });
  return res.data as { id: number; code: string };
}

/** A personal account of the platform company, signed in: someone who may apply through an invitation. */
export async function applicant(w: World): Promise<string> {
  const db = w.t.app.database.db;
  const role = await db
    .selectFrom('role')
    .select('id')
    .where('company_id', '=', 1)
    .where('role_key', '=', 'personal')
    .executeTakeFirstOrThrow();
  const account = `fuzz-applicant-${w.n++}@example.com`;
  await createUser(db, { companyId: 1, roleId: role.id, account, password: 'Start#2026', nickname: 'Applicant' });
  return login(w.t.app, account, 'Start#2026');
}

/** A person's application to the demo company, waiting for review. */
export async function fuzzApplication(w: World): Promise<number> {
  const invite = await fuzzInvite(w);
  const res = await call(w.t.app, 'POST', '/invite/apply', { token: await applicant(w), body: { code: invite.code } });
  return res.data.id as number;
}

/** The id of a built-in role of the demo company. */
export async function companyRole(w: World, key: string): Promise<number> {
  const role = await w.t.app.database.db
    .selectFrom('role')
    .select('id')
    .where('company_id', '=', w.refs['company.own'] as number)
    .where('role_key', '=', key)
    .executeTakeFirstOrThrow();
  return role.id;
}

/** A fresh operator of the demo company, for the calls that change or remove a person. */
export function member(w: World) {
  return freshUser(w.t, { companyId: w.refs['company.own'] as number, role: 'operator' });
}

/** A public address given by number (no name to resolve): a webhook the server accepts. */
export const WEBHOOK_URL = 'https://93.184.215.14/hook';

/** A webhook of the demo company, made for the call that needs one. */
export async function webhook(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/webhook/save', {
    token: w.sessions.company,
    body: { name: `Hook ${Math.random().toString(36).slice(2, 8)}`, url: WEBHOOK_URL, events: ['alarm.raised'] },
  });
  return res.data.id;
}

/** A threshold rule of the demo company, made for the call that needs one. */
export async function alarmRule(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/alarm/rule/save', {
    token: w.sessions.company,
    body: { name: 'Fuzz rule', item: 'fuel_level', op: 'below', threshold: 10, level: 'warning' },
  });
  return res.data.id;
}

/** A module firmware image uploaded as a form (multipart), for the model of `otaSet`'s controller protocol. */
export function otaForm(version: string): RawBody {
  const boundary = 'FuzzOtaBoundary';
  const fields = { name: 'Fuzz firmware', version, target: 'controller', model: layoutS.key };
  const text = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    raw: Buffer.concat([
      Buffer.from(text + file),
      Buffer.from(`firmware ${version}`),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A firmware file of the company, uploaded as the company administrator. */
export async function otaFile(w: World): Promise<number> {
  const form = otaForm(`1.0.${w.n++}`);
  const res = await w.t.app.inject({
    method: 'POST',
    url: '/yewu/ota/file/upload',
    headers: { ...signedHeaders(w.sessions.company), 'content-type': form.contentType },
    payload: form.raw,
  });
  return (res.json() as { data: { id: number } }).data.id;
}

/** A set of the company with a module of its own (away), upgraded with a new file: its queued job. */
export async function otaJob(w: World): Promise<{ fileId: number; token: string; jobId: number }> {
  const companyId = w.refs['company.own'] as number;
  const modem = await w.t.app.devices.fleet.createModem({ companyId, modemKey: `FUZZOTA${Date.now()}${w.n++}` });
  const set = await w.t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: w.refs['user.manager'] as number,
    name: `Fuzz upgrade ${w.n++}`,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  const fileId = await otaFile(w);
  const res = await call(w.t.app, 'POST', '/ota/job/assign', {
    token: w.sessions.company,
    body: { fileId, tokens: [set.token] },
  });
  if (res.code !== 200) throw new Error(`assign: ${res.msg}`);
  const jobs = await call(w.t.app, 'GET', '/ota/job/list', {
    token: w.sessions.company,
    query: { fileId: String(fileId) },
  });
  return { fileId, token: set.token, jobId: jobs.data.list[0].id };
}

function signedHeaders(token: string) {
  const time = String(Math.floor(Date.now() / 1000));
  return { 'x-time': time, 'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET), 'x-token': token };
}

// ---- energy-storage stations ----

export const siteRefs = fc.constantFrom(ref('site.own'), ref('site.foreign'), ref('set.own'));

/** A price template body the server takes: the access matrix's, with a peak and reverse-power and demand control on. */
export const SITE_TEMPLATE = {
  ...TEMPLATE,
  ranges: [
    { start: '00:00', end: '08:00', period: 'valley' },
    { start: '08:00', end: '18:00', period: 'peak' },
    { start: '18:00', end: '24:00', period: 'flat' },
  ],
  reversePower: { enabled: true, marginKw: 5 },
  demandControl: { enabled: true, limitKw: 300 },
};

/** A station of the company (fields only), added through its call. */
export async function plainStation(w: World, name: string): Promise<string> {
  const res = await call(w.t.app, 'POST', '/site/add', {
    token: w.sessions.company,
    body: { name, timeZone: 'Asia/Shanghai', capacityKwh: 215, ratingKw: 100 },
  });
  if (res.code !== 200) throw new Error(`station: ${res.msg}`);
  return res.data.token as string;
}

/** A template of the company, saved through its call. */
export async function siteTemplate(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/ems/template/save', {
    token: w.sessions.company,
    body: { name: `Fuzz tariff ${w.n++}`, ...SITE_TEMPLATE },
  });
  if (res.code !== 200) throw new Error(`template: ${res.msg}`);
  return res.data.id as number;
}

/**
 * A whole station of the company: a module (that answers every request) with a layout E PCS, BMS, grid meter and
 * PV inverter, bound by role, and a template; with `tactic`, one accepted tactic.
 */
export async function fullStation(w: World, tactic = false): Promise<{ token: string; templateId: number }> {
  const companyId = w.refs['company.own'] as number;
  const modemKey = `FUZZESS${Date.now()}${w.n++}`;
  const modem = await w.t.app.devices.fleet.createModem({ companyId, modemKey });
  const devices = [];
  for (const [i, [role, doc]] of (
    [
      ['pcs', layoutEPcs],
      ['bms', layoutEBms],
      ['meter', layoutEMeter],
      ['pv', layoutEPv],
    ] as const
  ).entries()) {
    const set = await w.t.app.devices.fleet.createGenset({
      companyId,
      ownerUserId: w.refs['user.manager'] as number,
      name: `Fuzz ${role} ${w.n++}`,
      modemId: modem.id,
      address: i + 1,
      protocolKey: doc.key,
    });
    devices.push({ token: set.token, role });
  }
  w.t.app.devices.ingest.invalidate();
  w.t.app.gensets.directory.invalidate();
  const module = await connectFakeModule(`mqtt://127.0.0.1:${w.t.app.devices.transport.port}`, modemKey, modem.secret);
  answerRequests(module);
  const templateId = await siteTemplate(w);
  const res = await call(w.t.app, 'POST', '/site/add', {
    token: w.sessions.company,
    body: {
      name: `Fuzz station ${w.n++}`,
      timeZone: 'Asia/Shanghai',
      capacityKwh: 215,
      ratingKw: 100,
      modemId: modemKey,
      devices,
      templateId,
    },
  });
  if (res.code !== 200) throw new Error(`station: ${res.msg}`);
  const token = res.data.token as string;
  if (tactic) {
    const sent = await call(w.t.app, 'POST', '/ems/sendTactic', {
      token: w.sessions.company,
      body: { token, strategy: 'timeOfUse', templateId, password: PASSWORDS.company },
    });
    if (sent.code !== 200) throw new Error(`tactic: ${sent.msg}`);
  }
  return { token, templateId };
}

/** A set of the company in no group yet, to group. */
export async function spareSet(w: World): Promise<string> {
  const set = await w.t.app.devices.fleet.createGenset({
    companyId: w.refs['company.own'] as number,
    ownerUserId: w.refs['user.manager'] as number,
    name: `Fuzz group member ${w.n++}`,
    modemId: null,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  return set.token;
}

/** A set of the company without an owner, handed to the company's manager by the platform administrator. */
export async function incomingTransfer(w: World): Promise<number> {
  const set = await w.t.app.devices.fleet.createGenset({
    companyId: w.refs['company.own'] as number,
    ownerUserId: null,
    name: `Fuzz handover ${w.n++}`,
    modemId: null,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  const res = await call(w.t.app, 'POST', '/genset/transferdevice', {
    token: w.sessions.platform,
    body: { token: set.token, account: 'manager@example.com' },
  });
  if (res.code !== 200) throw new Error(`handover not made: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

/** A spare set the company's manager hands to the operator. */
export async function outgoingTransfer(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/genset/transferdevice', {
    token: w.sessions.company,
    body: { token: await spareSet(w), account: 'operator@example.com' },
  });
  if (res.code !== 200) throw new Error(`handover not made: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

/** A set of the company whose module reported a SIM card, to set a plan for. */
export async function simSet(w: World): Promise<string> {
  const modem = await w.t.app.devices.fleet.createModem({
    companyId: w.refs['company.own'] as number,
    modemKey: `FUZZSIM${Date.now()}${w.n++}`,
  });
  await w.t.app.database.db
    .updateTable('modem')
    .set({ iccid: `898600${String(Date.now()).slice(-8)}${String(w.n++).padStart(6, '0')}` })
    .where('id', '=', modem.id)
    .execute();
  const set = await w.t.app.devices.fleet.createGenset({
    companyId: w.refs['company.own'] as number,
    ownerUserId: w.refs['user.manager'] as number,
    name: `Fuzz SIM set ${w.n++}`,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  w.t.app.gensets.directory.invalidate();
  return set.token;
}

/** A maintenance item of a spare set with its pending task, to change, toggle, delete or mark done. */
export async function maintItem(w: World): Promise<{ token: string; id: number; taskId: number }> {
  const token = await spareSet(w);
  const res = await call(w.t.app, 'POST', '/maintain/item/save', {
    token: w.sessions.company,
    body: { token, name: `Fuzz item ${w.n++}`, cycleDays: 30, latestDate: '2026-01-01' },
  });
  if (res.code !== 200) throw new Error(`maintenance item not saved: ${res.code} ${res.msg}`);
  const plan = await call(w.t.app, 'POST', '/maintain/plan', { token: w.sessions.company, body: { token } });
  return { token, id: res.data.id as number, taskId: plan.data.items[0].taskId as number };
}

/** A maintenance template of the demo company. */
export async function maintTemplate(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/maintain/template/save', {
    token: w.sessions.company,
    body: { name: `Fuzz template ${w.n++}`, model: 'FZ-1', items: [{ name: 'Oil', cycleDays: 90 }] },
  });
  if (res.code !== 200) throw new Error(`template not saved: ${res.code} ${res.msg}`);
  return res.data.id as number;
}

/** A maintenance link of a spare set. */
export async function maintLink(w: World): Promise<{ token: string; id: number; mtoken: string }> {
  const token = await spareSet(w);
  const res = await call(w.t.app, 'POST', '/maintain/mtoken/create', {
    token: w.sessions.company,
    body: { token, days: 3 },
  });
  if (res.code !== 200) throw new Error(`maintenance link not made: ${res.code} ${res.msg}`);
  return { token, id: res.data.id as number, mtoken: res.data.mtoken as string };
}

/** A camera of a spare set, to change, delete or watch. */
export async function camera(w: World): Promise<{ token: string; id: number }> {
  const token = await spareSet(w);
  const res = await call(w.t.app, 'POST', '/video/add', {
    token: w.sessions.company,
    body: { token, name: `Fuzz camera ${w.n++}`, url: CAMERA_URL },
  });
  if (res.code !== 200) throw new Error(`camera not added: ${res.code} ${res.msg}`);
  return { token, id: res.data.id as number };
}

/** A new parallel group of two spare sets, to read or delete. */
export async function group(w: World): Promise<string> {
  const res = await call(w.t.app, 'POST', '/genset/savedevxml', {
    token: w.sessions.company,
    body: { name: `Fuzz group ${w.n++}`, kind: 'parallel', members: [await spareSet(w), await spareSet(w)] },
  });
  if (res.code !== 200) throw new Error(`group not made: ${res.code} ${res.msg}`);
  return res.data.token as string;
}

/** A diesel generator report of the own set as its prefill makes it, ready to save. */
export async function reportForm(w: World) {
  const res = await call(w.t.app, 'POST', '/data/dieselGeneratorReport', {
    token: w.sessions.company,
    body: { token: w.refs['set.own'], ...REPORT_PERIOD },
  });
  if (res.code !== 200) throw new Error(`report not prefilled: ${res.code} ${res.msg}`);
  return { token: w.refs['set.own'], type: 1, ...REPORT_PERIOD, form: res.data.form };
}

export async function saveReport(w: World) {
  const res = await call(w.t.app, 'POST', '/baobiao/add', { token: w.sessions.company, body: await reportForm(w) });
  if (res.code !== 200) throw new Error(`report not saved: ${res.code} ${res.msg}`);
}

/** A new draft version (a copy of layout S under a new key), to publish or delete. */
export async function draft(w: World): Promise<number> {
  const res = await call(w.t.app, 'POST', '/protocol/copy', {
    token: w.sessions.platform,
    body: { id: w.refs['protocol.published'], key: `fuzz-draft-${w.n++}` },
  });
  if (res.code !== 200) throw new Error(`draft not made: ${res.code} ${res.msg}`);
  return res.data.id as number;
}
