// The authorisation matrix: for every /yewu route, what it asks for (public, signed in, or permissions), which
// rows its target fields name, and how it is called (fields given as they are, on a session of its own, after the
// others when it takes away what it names, or as a list that only filters). access-matrix.test.ts checks it against
// each route's own declaration and calls every route by it; access-tenants.test.ts aims it at another company.
import { layoutS, Permission, type PermissionString } from '@genset/protocol';

export type Expect =
  | 'public'
  | 'signedIn'
  | readonly PermissionString[]
  /** One of `any` and every one of `all`. */
  | { readonly any: readonly PermissionString[]; readonly all: readonly PermissionString[] };
/** Rows a target field can name. */
export type Kind =
  | 'set'
  | 'sets'
  | 'station'
  | 'stations'
  | 'emsTemplate'
  | 'maintTemplate'
  | 'webhook'
  | 'alarmRule'
  | 'camera'
  | 'subscription'
  | 'subscriptions'
  | 'user'
  | 'role'
  | 'department'
  | 'protocol'
  | 'company'
  | 'logEntry'
  /** An account that does not exist yet, one per caller. */
  | 'newAccount';

/** Who calls: no one, a personal user, company A's administrator, operator, viewer, company B's administrator, the platform. */
export type CallerName = 'none' | 'personal' | 'companyAdmin' | 'operator' | 'viewer' | 'otherAdmin' | 'platform';

/**
 * What a caller its declaration lets through is answered when the generated request cannot succeed: one code for
 * all, or by caller (`others` for the rest). Without it: 200.
 */
export type Answers = number | Partial<Record<CallerName | 'others', number>>;

export interface Row {
  access: Expect;
  /** The exact answer to those let through, where it is not 200 ... */
  answers?: Answers;
  /** ... and why the generated request gets it. */
  why?: string;
  /** What the call's target fields name; by default `token` names a set (a station on station routes), `tokens` sets. */
  targets?: Record<string, Kind>;
  /** The request is the fixed fields and the targets alone, nothing generated (a body the route accepts). */
  only?: boolean;
  /** Fields given as they are, over the generated ones. */
  fixed?: Record<string, unknown>;
  /** The call ends the caller's session: it is made on a session of its own. */
  ownSession?: boolean;
  /** The call takes away what it names: made after the others ('last': the set itself, after those too). */
  destroys?: boolean | 'last';
  /** A list whose target field only filters: aimed at company A it must show none of A's rows (any code). */
  filters?: boolean;
}

/** The code a caller let through gets from the row's request. */
export function answerOf(row: Row, caller: CallerName): number {
  const a = row.answers;
  if (a === undefined) return 200;
  if (typeof a === 'number') return a;
  return a[caller] ?? a.others ?? 200;
}

/** A tariff template the station calls accept. */
export const TEMPLATE = {
  ranges: [
    { start: '00:00', end: '08:00', period: 'valley' },
    { start: '08:00', end: '24:00', period: 'flat' },
  ],
  prices: {
    sharp: { buy: 1.3, sell: 1.2 },
    peak: { buy: 1, sell: 0.9 },
    flat: { buy: 0.6, sell: 0.55 },
    valley: { buy: 0.3, sell: 0.25 },
  },
  powerKw: 100,
  chargeCutoffSoc: 95,
  dischargeCutoffSoc: 10,
  socMargin: 3,
  reversePower: { enabled: false, marginKw: 0 },
  demandControl: { enabled: false, limitKw: 0 },
};

/** A tariff template of one price throughout (flat by day, valley by night, each at 1), cut-offs at 90 % and 10 %. */
export const ONE_PRICE_TEMPLATE = {
  ranges: [
    { start: '08:00', end: '22:00', period: 'flat' },
    { start: '22:00', end: '08:00', period: 'valley' },
  ],
  prices: {
    sharp: { buy: 1, sell: 1 },
    peak: { buy: 1, sell: 1 },
    flat: { buy: 1, sell: 1 },
    valley: { buy: 1, sell: 1 },
  },
  powerKw: 100,
  chargeCutoffSoc: 90,
  dischargeCutoffSoc: 10,
  socMargin: 2,
  reversePower: { enabled: false, marginKw: 0 },
  demandControl: { enabled: false, limitKw: 0 },
};

const DAY = 86_400_000;
/** A data item of the protocol the matrix's sets run. */
const ITEM = layoutS.items.find((i) => i.group !== 'status')!.key;
/** An id no row has: a generated id could name a row another call of the run just made. */
const NONE = 999_999;
const PERIOD = { from: '2026-01-01', to: '2026-01-07' };

const PUBLIC: Row = { access: 'public' };
const SIGNED: Row = { access: 'signedIn' };
const needs = (...p: PermissionString[]): Row => ({ access: p });
/** One of `any` and also every one of `all`. */
const needsAll = (any: PermissionString[], ...all: PermissionString[]): Row => ({ access: { any, all } });
const signed = (o: Omit<Row, 'access'>): Row => ({ access: 'signedIn', ...o });
/** The row with the exact answer its generated request gets, and why. */
const answering = (row: Row, answers: Answers, why: string): Row => ({ ...row, answers, why });
export const P = Permission;

export const ROWS: Record<string, Row> = {
  // account
  'POST /yewu/user/login': { ...PUBLIC, only: true, fixed: { username: 'manager@example.com', password: 'Demo#2026' } },
  'POST /yewu/user/codelogin': answering(PUBLIC, 400, 'the generated account is no e-mail address or mobile number'),
  'POST /yewu/sendMessage': answering(PUBLIC, 400, 'the generated account is no e-mail address or mobile number'),
  'POST /yewu/user/embedCode': SIGNED,
  'POST /yewu/user/embedLogin': answering(PUBLIC, 400, 'the generated code is no embedding code'),
  'POST /yewu/user/register': answering(PUBLIC, 400, 'the generated account is no e-mail address or mobile number'),
  'POST /yewu/user/forgetPassword': answering(
    PUBLIC,
    400,
    'the generated account is no e-mail address or mobile number',
  ),
  'POST /yewu/logout': signed({ ownSession: true }),
  'GET /yewu/user/info': SIGNED,
  'GET /yewu/getRoute': SIGNED,
  'POST /yewu/user/password': answering(signed({ ownSession: true }), 400, 'the generated new password is too weak'),
  'POST /yewu/user/delUser': answering(signed({ ownSession: true }), 400, 'the generated password is not the caller’s'),
  'POST /yewu/user/setMessage': SIGNED,
  'POST /yewu/user/updateProfile': SIGNED,
  // company
  'GET /yewu/company/getName': PUBLIC,
  'GET /yewu/company/getlogo': PUBLIC,
  'GET /yewu/company/getinfo/:id': signed({ targets: { id: 'company' } }),
  'GET /yewu/help/list': SIGNED,
  'GET /yewu/help/info': answering(SIGNED, 404, 'the generated slug names no help page'),
  // monitoring
  'POST /yewu/home/summary': SIGNED,
  'POST /yewu/devicedata/getmutilstatus': SIGNED,
  'POST /yewu/devicedata/getstatus': SIGNED,
  'POST /yewu/realTimeData/monitorList': SIGNED,
  'POST /yewu/devicedata/commands': SIGNED,
  'POST /yewu/devicedata/sendaction': answering(SIGNED, 400, 'the generated command is not one of the set’s'),
  // the form's `utoken` stands in for the header: left out, the header is what is read
  'POST /yewu/devicedata/restartmodem': answering(
    signed({ fixed: { utoken: undefined } }),
    504,
    'the set’s cloud module is offline',
  ),
  'POST /yewu/deviceitems/select': SIGNED,
  'POST /yewu/deviceitems/edit': signed({ fixed: { items: [ITEM] } }),
  'POST /yewu/deviceitems/reset': SIGNED,
  'POST /yewu/devicedata/getmonitorwithselect': SIGNED,
  'POST /yewu/configdata/readconfignew': answering(SIGNED, 400, 'the generated menu is not one of the set’s protocol'),
  'POST /yewu/configdata/writeconfignew': answering(SIGNED, 400, 'the generated password is not the caller’s'),
  // a data item of the sets' protocol (the generated ones are no set's)
  'POST /yewu/history/chart': signed({ fixed: { items: [ITEM] } }),
  'POST /yewu/devicedata/gethistory': signed({ fixed: { items: [ITEM] } }),
  'POST /yewu/devicedata/getalarmhistory': needs(P.alarmView),
  'POST /yewu/alarm/current': needs(P.alarmView),
  'POST /yewu/alarm/ack': answering(
    { ...needs(P.alarmView), only: true, fixed: { id: 2_000_000_000, comment: 'Matrix acknowledgement' } },
    404,
    'the id names no alarm',
  ),
  'POST /yewu/alarm/shelve': answering(
    { ...needs(P.alarmView), only: true, fixed: { id: 2_000_000_000, minutes: 60, reason: 'Matrix shelf' } },
    404,
    'the id names no alarm',
  ),
  'POST /yewu/alarm/unshelve': answering(
    { ...needs(P.alarmView), only: true, fixed: { id: 2_000_000_000 } },
    404,
    'the id names no alarm',
  ),
  'POST /yewu/alarm/chart': needs(P.alarmView),
  'POST /yewu/alarm/analytics': needs(P.alarmView),
  'POST /yewu/alarm/analytics/export': needs(P.alarmView),
  'POST /yewu/maintain/countdown': SIGNED,
  'POST /yewu/genset/exportruntimedata': SIGNED,
  // sets
  'POST /yewu/genset/add': {
    ...needs(P.gensetManage),
    only: true,
    fixed: { name: 'Matrix set', protocolKey: layoutS.key },
  },
  'POST /yewu/genset/update': signed({ only: true, fixed: { name: 'Matrix renamed set' } }),
  'POST /yewu/genset/del': signed({ destroys: 'last' }),
  'POST /yewu/genset/info': SIGNED,
  'POST /yewu/genset/mylist': SIGNED,
  'POST /yewu/genset/list': needs(P.gensetManage),
  // the company list needs genset:manage (the service's own check): the matrix exports one's own list
  'POST /yewu/genset/export': signed({ fixed: { scope: 'mylist' } }),
  'POST /yewu/genset/protocols': SIGNED,
  'POST /yewu/genset/resetcodes': SIGNED,
  'POST /yewu/sub/add': answering(SIGNED, 400, 'the generated code is no subscription code'),
  'POST /yewu/sub/list': SIGNED,
  'POST /yewu/sub/update': signed({ targets: { id: 'subscription' } }),
  // the owner of a set ends someone's subscription to it
  'POST /yewu/sub/del': signed({ targets: { ids: 'subscriptions' }, fixed: { token: undefined }, destroys: true }),
  'POST /yewu/genset/getNav': SIGNED,
  'POST /yewu/genset/getZuItem': answering(SIGNED, 404, 'the generated group id names none'),
  'POST /yewu/genset/savedevxml': answering(
    signed({ targets: { tokens: 'sets' } }),
    404,
    'the generated group id names none',
  ),
  'POST /yewu/genset/delZu': answering(signed({ destroys: true }), 404, 'the generated group id names none'),
  'POST /yewu/genset/groupCommand': answering(SIGNED, 404, 'the generated group id names none'),
  'POST /yewu/genset/groupCommandJob': answering(SIGNED, 404, 'the generated job id names none'),
  'POST /yewu/genset/fence': SIGNED,
  'POST /yewu/genset/updateFence': SIGNED,
  'POST /yewu/genset/guiji': signed({ fixed: { start: Date.now() - DAY, end: Date.now() } }),
  'POST /yewu/iotcard/getinfo': SIGNED,
  'POST /yewu/iotcard/setPlan': answering(SIGNED, 409, 'the set’s module has reported no SIM card'),
  'POST /yewu/genset/transferdevice': SIGNED,
  'POST /yewu/genset/transfer/list': SIGNED,
  'POST /yewu/genset/transfer/accept': answering(signed({ fixed: { id: NONE } }), 404, 'names no hand-over'),
  'POST /yewu/genset/transfer/reject': answering(signed({ fixed: { id: NONE } }), 404, 'names no hand-over'),
  'POST /yewu/genset/transfer/revoke': answering(signed({ fixed: { id: NONE } }), 404, 'names no hand-over'),
  // maintenance
  'POST /yewu/maintain/plan': SIGNED,
  'POST /yewu/maintain/item/save': answering(SIGNED, 400, 'the generated reminder is longer than its cycle'),
  'POST /yewu/maintain/item/delete': answering(
    signed({ fixed: { id: NONE }, destroys: true }),
    404,
    'names no maintenance item',
  ),
  'POST /yewu/maintain/item/toggle': answering(signed({ fixed: { id: NONE } }), 404, 'names no maintenance item'),
  'POST /yewu/maintain/task/done': answering(signed({ fixed: { id: NONE } }), 404, 'names no maintenance task'),
  'POST /yewu/maintain/history': SIGNED,
  'POST /yewu/maintain/tasks': SIGNED,
  'POST /yewu/maintain/counts': SIGNED,
  'POST /yewu/maintain/template/list': needs(P.gensetManage),
  'POST /yewu/maintain/template/save': {
    ...needs(P.gensetManage),
    only: true,
    fixed: { name: 'Matrix plan', model: 'QZ-2', items: [{ name: 'Oil', cycleDays: 90 }] },
  },
  'POST /yewu/maintain/template/delete': answering(
    { ...needs(P.gensetManage), targets: { id: 'maintTemplate' }, destroys: true },
    { otherAdmin: 404, platform: 404 },
    "names no template of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/maintain/template/apply': answering(
    { ...needs(P.gensetManage), targets: { id: 'maintTemplate', tokens: 'sets' } },
    { otherAdmin: 404, platform: 404 },
    "names no template of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/maintain/mtoken/create': SIGNED,
  'POST /yewu/maintain/mtoken/revoke': answering(
    signed({ fixed: { id: NONE }, destroys: true }),
    404,
    'names no maintenance link',
  ),
  'POST /yewu/maintain/public': answering(
    PUBLIC,
    403,
    'the generated maintenance link is not valid (403 is its own answer, worded)',
  ),
  // notices and webhooks
  'POST /yewu/notice/list': SIGNED,
  'GET /yewu/notice/unread': SIGNED,
  'POST /yewu/notice/read': SIGNED,
  'POST /yewu/notice/readAll': SIGNED,
  'POST /yewu/webhook/list': needs(P.companyManage),
  'POST /yewu/webhook/save': answering(
    {
      ...needs(P.companyManage),
      targets: { id: 'webhook' },
      fixed: { url: 'https://93.184.215.14/hook' },
    },
    { otherAdmin: 404, platform: 404 },
    "names no webhook of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/webhook/delete': answering(
    { ...needs(P.companyManage), targets: { id: 'webhook' }, destroys: true },
    { otherAdmin: 404, platform: 404 },
    "names no webhook of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/webhook/deliveries': answering(
    { ...needs(P.companyManage), targets: { id: 'webhook' } },
    { otherAdmin: 404, platform: 404 },
    "names no webhook of the caller's company (company A's for the platform administrator)",
  ),
  // threshold rules of the company
  'POST /yewu/alarm/rule/list': needs(P.companyManage),
  'POST /yewu/alarm/rule/save': answering(
    {
      ...needs(P.companyManage),
      targets: { id: 'alarmRule' },
      fixed: { item: 'fuel_level', scope: 'fleet' },
    },
    { otherAdmin: 404, platform: 404 },
    "names no alarm rule of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/alarm/rule/delete': answering(
    { ...needs(P.companyManage), targets: { id: 'alarmRule' }, destroys: true },
    { otherAdmin: 404, platform: 404 },
    "names no alarm rule of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/alarm/policy': needs(P.companyManage),
  'POST /yewu/alarm/policy/save': {
    ...needs(P.companyManage),
    only: true,
    fixed: { holdSeconds: 60, escalateAfterMinutes: null, escalateTo: [] },
  },
  // messages: whether codes leave the server (public), how they go out, the log and test messages, one-click
  // unsubscribe and the SMS provider's delivery reports
  'GET /yewu/messages/channels': PUBLIC,
  'GET /yewu/messages/status': needs(P.companyManage),
  'POST /yewu/messages/log': needs(P.companyManage),
  'POST /yewu/messages/test': {
    ...needs(P.companyManage),
    only: true,
    fixed: { channel: 'push' },
  },
  'GET /yewu/messages/unsubscribe': PUBLIC,
  'POST /yewu/messages/unsubscribe': answering(PUBLIC, 400, 'the generated token is no unsubscribe token'),
  'POST /yewu/messages/status/twilio': answering(PUBLIC, 403, 'no Twilio signature: nothing is believed'),
  // Web Push: the caller's own devices
  'GET /yewu/push/key': SIGNED,
  'POST /yewu/push/subscribe': answering(SIGNED, 400, 'the generated push address is no https address'),
  'POST /yewu/push/unsubscribe': answering(SIGNED, 404, 'names no device of the caller'),
  'GET /yewu/push/devices': SIGNED,
  // firmware
  'POST /yewu/ota/file/upload': answering(
    needs(P.otaManage),
    { companyAdmin: 400, otherAdmin: 400, platform: 400 },
    'firmware is a multipart file, the matrix sends JSON',
  ),
  'GET /yewu/ota/file/list': needs(P.otaManage),
  'POST /yewu/ota/file/delete': answering(
    { ...needs(P.otaManage), fixed: { id: String(NONE) }, destroys: true },
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'names no firmware file',
  ),
  'POST /yewu/ota/job/assign': answering(
    { ...needs(P.otaManage), fixed: { fileId: String(NONE) } },
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'names no firmware file',
  ),
  // without a set it lists a file's jobs, which needs ota:manage (the service's own check): the matrix names a set
  'GET /yewu/ota/job/list': SIGNED,
  'POST /yewu/ota/job/cancel': answering(
    { ...needs(P.otaManage), fixed: { id: String(NONE) }, destroys: true },
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'names no firmware job',
  ),
  'GET /yewu/ota/download/:token': answering(PUBLIC, 404, 'the generated download token names no firmware job'),
  // protocols
  'POST /yewu/protocol/list': needs(P.protocolManage),
  'GET /yewu/protocol/info/:id': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/add': answering(
    needs(P.protocolManage),
    { platform: 400 },
    'the generated protocol document is not valid',
  ),
  'POST /yewu/protocol/copy': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/save': answering(
    { ...needs(P.protocolManage), targets: { id: 'protocol' } },
    { platform: 400 },
    'the generated protocol document is not valid',
  ),
  'POST /yewu/protocol/publish': answering(
    { ...needs(P.protocolManage), targets: { id: 'protocol' } },
    { platform: 409 },
    'the protocol named is published already',
  ),
  'POST /yewu/protocol/del': answering(
    { ...needs(P.protocolManage), targets: { id: 'protocol' }, destroys: true },
    { platform: 409 },
    'the protocol named is in use by sets',
  ),
  'GET /yewu/protocol/export/:id': { ...needs(P.protocolManage), targets: { id: 'protocol' } },
  'POST /yewu/protocol/import': answering(
    needs(P.protocolManage),
    { platform: 400 },
    'the generated protocol document is not valid',
  ),
  // repairs
  'POST /yewu/baoxiu/add': answering(SIGNED, 400, 'a repair request is a multipart form, the matrix sends JSON'),
  'GET /yewu/baoxiu/my': SIGNED,
  'GET /yewu/baoxiu/list': needs(P.repairManage),
  'GET /yewu/baoxiu/detail': answering(SIGNED, 404, 'the generated repair request id names none'),
  'POST /yewu/baoxiu/update': answering(
    needs(P.repairManage),
    { companyAdmin: 404, operator: 404, otherAdmin: 404, platform: 404 },
    'the generated repair request id names none',
  ),
  'GET /yewu/baoxiu/picture': answering(SIGNED, 404, 'the generated repair request and picture name none'),
  // reports and weather
  'POST /yewu/data/dieselGeneratorReport': { ...needs(P.gensetReport), fixed: PERIOD },
  'POST /yewu/data/airCompressorReport': { ...needs(P.gensetReport), fixed: PERIOD },
  'POST /yewu/baobiao/info': answering(
    needs(P.gensetReport),
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'the generated report id names none',
  ),
  'POST /yewu/baobiao/add': answering(
    { ...needs(P.gensetReport), fixed: PERIOD },
    { companyAdmin: 400, otherAdmin: 400, platform: 400 },
    'the generated form values are out of range',
  ),
  'POST /yewu/genset/reportone': needs(P.gensetReport),
  'POST /yewu/baobiao/export': answering(
    needs(P.gensetReport),
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'the generated report id names none',
  ),
  'GET /yewu/getWeather': needs(P.gensetReport),
  // stations
  'GET /yewu/site/list': needs(P.siteView),
  'GET /yewu/site/getInfo/:token': answering(
    needs(P.siteView),
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  'POST /yewu/site/add': {
    ...needs(P.siteManage),
    only: true,
    fixed: { name: 'Matrix station', timeZone: 'UTC', capacityKwh: 100, ratingKw: 50 },
  },
  'POST /yewu/site/edit': {
    ...needs(P.siteManage),
    fixed: { name: 'Edited', timeZone: 'UTC', capacityKwh: 100, ratingKw: 50, devices: [] },
  },
  'POST /yewu/site/del': answering(
    { ...needs(P.siteManage), destroys: true },
    { platform: 404 },
    "company A's administrator deleted the station just before (what takes away runs one call at a time, in the callers' order)",
  ),
  'GET /yewu/site/devices': answering(
    needs(P.siteView),
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  'GET /yewu/site/log': answering(
    needsAll([P.logView], P.siteView),
    { operator: 404 },
    "company A's station lies outside the operator's data scope",
  ),
  'GET /yewu/site/logInfo': answering(
    { ...needsAll([P.logView], P.siteView), targets: { token: 'station', id: 'logEntry' } },
    { companyAdmin: 404, operator: 404, otherAdmin: 404, platform: 404 },
    'the log entry named is no entry of the station',
  ),
  'GET /yewu/site/logRunRecord': answering(
    needs(P.siteView),
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  'POST /yewu/ems/template/list': needs(P.siteView),
  'POST /yewu/ems/template/save': answering(
    {
      ...needs(P.siteManage),
      targets: { id: 'emsTemplate' },
      fixed: { name: 'Tariff', ...TEMPLATE, validFrom: undefined },
    },
    { otherAdmin: 404 },
    "names no template of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/ems/template/info': answering(
    { ...needs(P.siteView), targets: { id: 'emsTemplate' } },
    { otherAdmin: 404 },
    "names no template of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/ems/template/delete': answering(
    { ...needs(P.siteManage), targets: { id: 'emsTemplate' }, destroys: true },
    { otherAdmin: 404, platform: 404 },
    "names no template of company B; company A's administrator deleted A's just before (one call at a time, in the callers' order)",
  ),
  'POST /yewu/ems/sendTactic': answering(
    { ...needs(P.siteManage), targets: { token: 'station', templateId: 'emsTemplate' } },
    { companyAdmin: 400, otherAdmin: 400, platform: 400 },
    'the generated password is not the caller’s',
  ),
  'POST /yewu/ems/demandResponse': answering(
    { ...needs(P.siteManage), fixed: { start: Date.now() + DAY, end: Date.now() + 2 * DAY, kw: 10 } },
    { companyAdmin: 409, otherAdmin: 409, platform: 409 },
    'the station runs no strategy yet (none was sent to it)',
  ),
  'POST /yewu/ems/stats': answering(
    { ...needs(P.siteView), fixed: { granularity: 'day', date: '2026-01-01' } },
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  'POST /yewu/ems/stats/export': answering(
    { ...needs(P.siteView), fixed: { granularity: 'day', date: '2026-01-01' } },
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  'POST /yewu/ems/alarm/current': answering(
    needsAll([P.alarmView], P.siteView),
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  'POST /yewu/ems/alarm/history': answering(
    needsAll([P.alarmView], P.siteView),
    { operator: 404, viewer: 404 },
    "company A's station lies outside the operator's and viewer's data scope",
  ),
  // video
  'POST /yewu/video/list': SIGNED,
  'POST /yewu/video/add': signed({ fixed: { url: 'http://127.0.0.1:9/stream' } }),
  // each caller's own set has a camera of its own
  'POST /yewu/video/update': signed({ targets: { token: 'set', id: 'camera' } }),
  'POST /yewu/video/del': signed({ targets: { token: 'set', id: 'camera' }, destroys: true }),
  // watching a real camera answers by whether the machine has ffmpeg: the matrix names none
  'POST /yewu/video/watch': answering(
    signed({ targets: { token: 'set' }, fixed: { id: NONE } }),
    404,
    'names no camera of the set',
  ),
  'POST /yewu/video/renew': answering(SIGNED, 404, 'the generated lease is no live lease'),
  'POST /yewu/video/leave': SIGNED,
  'GET /yewu/video/live/:lease/:file': answering(PUBLIC, 404, 'the generated lease is no live lease'),
  'POST /yewu/video/live/:lease/leave': answering(PUBLIC, 204, 'a beacon is answered 204, whatever its lease'),
  // departments of sets and stations
  'POST /yewu/genset/setDepartment': answering(
    { ...needs(P.gensetManage), targets: { departmentId: 'department' } },
    { otherAdmin: 400, platform: 400 },
    "names no department of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/genset/departments': needs(P.gensetManage, P.siteManage),
  'POST /yewu/site/setDepartment': answering(
    { ...needs(P.siteManage), targets: { departmentId: 'department' } },
    { otherAdmin: 400, platform: 400 },
    "names no department of the caller's company (company A's for the platform administrator)",
  ),
  // roles, invitations, members, the operation log
  'GET /yewu/role/list': needs(P.roleManage, P.userManage),
  'GET /yewu/role/info/:id': answering(
    { ...needs(P.roleManage), targets: { id: 'role' } },
    { otherAdmin: 404, platform: 404 },
    "names no role of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/role/save': {
    ...needs(P.roleManage),
    only: true,
    fixed: { name: 'Matrix role', permissions: [P.gensetView], dataScope: 'company' },
  },
  'POST /yewu/role/update': answering(
    { ...needs(P.roleManage), targets: { id: 'role' } },
    { otherAdmin: 404, platform: 404 },
    "names no role of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/role/delete': answering(
    { ...needs(P.roleManage), targets: { id: 'role' }, destroys: true },
    { companyAdmin: 409, otherAdmin: 404, platform: 404 },
    "company A's role is held by people; none of the caller's company for the others",
  ),
  'POST /yewu/user/roleStatus': answering(
    { ...needs(P.roleManage), targets: { id: 'role' }, fixed: { status: 1 } },
    { otherAdmin: 404, platform: 404 },
    "names no role of the caller's company (company A's for the platform administrator)",
  ),
  'GET /yewu/role/getDataAuthRole': needs(P.roleManage),
  'POST /yewu/invite/create': answering(
    {
      ...needs(P.userManage),
      targets: { roleId: 'role', departmentId: 'department' },
      fixed: { expiresAt: Date.now() + 7 * DAY, maxUses: 5 },
    },
    { otherAdmin: 400, platform: 400 },
    "names no role of the caller's company (company A's for the platform administrator)",
  ),
  'GET /yewu/invite/list': needs(P.userManage),
  'POST /yewu/invite/revoke': answering(
    { ...needs(P.userManage), fixed: { id: NONE }, destroys: true },
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'names no invitation',
  ),
  'GET /yewu/invite/info/:code': answering(PUBLIC, 404, 'the generated code is no invitation'),
  'POST /yewu/invite/apply': answering(SIGNED, 404, 'the generated code is no invitation'),
  'GET /yewu/member/list': needs(P.userManage),
  'POST /yewu/member/audit': answering(
    { ...needs(P.userManage), targets: { roleId: 'role', departmentId: 'department' }, fixed: { id: NONE } },
    { companyAdmin: 404, otherAdmin: 404, platform: 404 },
    'names no application',
  ),
  'GET /yewu/log/list': { ...needs(P.logView), targets: { companyId: 'company' }, filters: true },
  'POST /yewu/log/export': { ...needs(P.logView), targets: { companyId: 'company' }, filters: true },
  // people and departments
  'GET /yewu/user/list': {
    ...needs(P.userManage),
    targets: { departmentId: 'department', roleId: 'role' },
    filters: true,
  },
  'GET /yewu/user/info/:id': answering(
    { ...needs(P.userManage), targets: { id: 'user' } },
    { otherAdmin: 404, platform: 404 },
    "names no person of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/user/add': answering(
    {
      ...needs(P.userManage),
      // an account of each caller's own: who adds it first does not decide the others' answers
      targets: { roleId: 'role', departmentId: 'department', account: 'newAccount' },
      fixed: { password: 'Start#2026x', nickname: 'Matrix person' },
    },
    { otherAdmin: 400, platform: 400 },
    "names no role of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/user/update': answering(
    {
      ...needs(P.userManage),
      targets: { userId: 'user', roleId: 'role', departmentId: 'department' },
    },
    { otherAdmin: 404, platform: 404 },
    "names no person of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/user/updateUserid': answering(
    {
      ...needs(P.userManage),
      targets: { userId: 'user', roleId: 'role', departmentId: 'department' },
    },
    { otherAdmin: 404, platform: 404 },
    "names no person of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/user/delete': answering(
    { ...needs(P.userManage), targets: { userId: 'user' }, destroys: true },
    { otherAdmin: 404, platform: 404 },
    "names no person of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/user/resetpassword': answering(
    { ...needs(P.userManage), targets: { userId: 'user' } },
    { otherAdmin: 404, platform: 404 },
    "names no person of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/user/userStatus': answering(
    { ...needs(P.userManage), targets: { userId: 'user' } },
    { otherAdmin: 404, platform: 404 },
    "names no person of the caller's company (company A's for the platform administrator)",
  ),
  'GET /yewu/dept/list': needs(P.departmentManage, P.userManage),
  'POST /yewu/dept/add': answering(
    { ...needs(P.departmentManage), targets: { parentId: 'department' } },
    { otherAdmin: 400, platform: 400 },
    "names no department of the caller's company (company A's for the platform administrator)",
  ),
  'POST /yewu/dept/update': answering(
    { ...needs(P.departmentManage), targets: { id: 'department', parentId: 'department' } },
    { companyAdmin: 409, otherAdmin: 404, platform: 404 },
    "moves company A's department under itself; none of the caller's company for the others",
  ),
  'POST /yewu/dept/delete': answering(
    { ...needs(P.departmentManage), targets: { id: 'department' }, destroys: true },
    { companyAdmin: 409, otherAdmin: 404, platform: 404 },
    "company A's department has one below it; none of the caller's company for the others",
  ),
  // companies: the platform administrator's (a company's company:manage does not reach them)
  'GET /yewu/company/list': needs(P.companyManage),
  'POST /yewu/company/add': {
    ...needs(P.companyManage),
    only: true,
    fixed: { name: 'Matrix company', currency: 'CNY', timeZone: 'Asia/Shanghai' },
  },
  'POST /yewu/company/update': answering(
    { ...needs(P.companyManage), fixed: { id: 999_999 } },
    { platform: 400 },
    'the generated time zone is not valid',
  ),
  'POST /yewu/company/del': answering(
    { ...needs(P.companyManage), fixed: { id: 999_999 }, destroys: true },
    { platform: 404 },
    'the row names no company',
  ),
  'POST /yewu/company/uploadLogo': answering(
    needs(P.companyManage),
    { platform: 400 },
    'a logo is a multipart picture, the matrix sends JSON',
  ),
  'GET /yewu/company/getIdentifie/:id': signed({ targets: { id: 'company' } }),
  'GET /yewu/company/getUserCompanyList': SIGNED,
};
