// The route fuzzing's table, second part: a set's live data and commands, protocols, configuration and chosen
// items, sets and subscriptions, history and alarms, groups, handovers, reports, weather, and the service
// endpoints (metrics, health). Each route's known-good request, and what it may answer; the test
// (fuzz-routes.test.ts) takes the parts in order.
import fc from 'fast-check';
import { layoutS } from '@genset/protocol';
import {
  draft,
  group,
  incomingTransfer,
  outgoingTransfer,
  reportForm,
  REPORT_PERIOD,
  saveReport,
  spareSet,
} from './fixtures.ts';
import {
  CONFIG_KEYS,
  get,
  ITEM_KEYS,
  MENU_KEYS,
  post,
  protocolIds,
  ref,
  SAFE_COMMAND,
  type RouteCase,
} from './world.ts';

export const SET_ROUTES: Record<string, RouteCase> = {
  'POST /yewu/devicedata/getstatus': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/realTimeData/monitorList': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/devicedata/commands': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/devicedata/sendaction': {
    writes: true,
    example: post('company', { token: ref('set.own'), action: SAFE_COMMAND }),
    hints: { password: fc.constantFrom(ref('password'), 'wrong#2026') },
  },
  'POST /yewu/devicedata/restartmodem': {
    writes: true,
    example: post('company', { token: ref('set.own') }),
  },
  'POST /yewu/protocol/list': { writes: false, example: post('platform', {}) },
  'GET /yewu/protocol/info/:id': {
    writes: false,
    example: async (w) => ({ identity: 'platform', params: { id: String(w.refs['protocol.published']) } }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/add': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { document: { ...w.document, key: `fuzz-add-${w.n++}` } } }),
  },
  'POST /yewu/protocol/copy': {
    writes: true,
    example: async (w) => ({
      identity: 'platform',
      body: { id: w.refs['protocol.published'], key: `fuzz-copy-${w.n++}` },
    }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/save': {
    writes: true,
    example: post('platform', { id: ref('protocol.draft'), layout: 'S' }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/publish': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { id: await draft(w) } }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/del': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { id: await draft(w) } }),
    hints: { id: fc.constantFrom(ref('protocol.published'), ref('protocol.victim')) },
  },
  'GET /yewu/protocol/export/:id': {
    writes: false,
    example: async (w) => ({ identity: 'platform', params: { id: String(w.refs['protocol.published']) } }),
    hints: { id: protocolIds },
  },
  'POST /yewu/protocol/import': {
    writes: true,
    example: async (w) => ({
      identity: 'platform',
      body: { document: { ...w.document, key: `fuzz-import-${w.n++}` } },
    }),
  },
  'POST /yewu/configdata/readconfignew': {
    writes: false,
    example: post('company', { token: ref('set.own'), menu: MENU_KEYS[0] }),
  },
  'POST /yewu/configdata/writeconfignew': {
    writes: true,
    example: post('company', { token: ref('set.own'), password: ref('password'), values: { [CONFIG_KEYS[0]!]: 1 } }),
    hints: { password: fc.constantFrom(ref('password'), 'wrong#2026') },
  },
  'POST /yewu/deviceitems/select': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/deviceitems/edit': {
    writes: true,
    example: post('company', { token: ref('set.own'), items: ITEM_KEYS.slice(0, 3) }),
  },
  'POST /yewu/deviceitems/reset': { writes: true, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/devicedata/getmonitorwithselect': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz added ${w.n++}`, protocolKey: layoutS.key, ratedPowerKw: 100, serviceLink: 'tel:+4912345' },
    }),
  },
  'POST /yewu/genset/update': {
    writes: true,
    example: post('company', { token: ref('set.bare'), name: 'Bare set', latitude: 52.5, longitude: 13.4 }),
    hints: { token: fc.constantFrom(ref('set.bare'), ref('set.foreign')) },
  },
  'POST /yewu/genset/del': {
    writes: true,
    example: post('company', { tokens: [ref('set.victim')] }),
    hints: {
      tokens: fc.array(fc.constantFrom(ref('set.victim2'), ref('set.foreign')), { minLength: 1, maxLength: 2 }),
      token: fc.constantFrom(ref('set.victim2'), ref('set.foreign')),
    },
  },
  'POST /yewu/genset/info': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/mylist': { writes: false, example: post('company', { search: 'fuzz' }) },
  'POST /yewu/genset/list': { writes: false, example: post('company', { status: 'all', sort: 'status' }) },
  'POST /yewu/genset/export': { writes: false, example: post('company', { scope: 'list', format: 'csv' }) },
  'POST /yewu/genset/protocols': { writes: false, example: post('company', {}) },
  'POST /yewu/genset/departments': { writes: false, example: post('company', {}) },
  'POST /yewu/genset/setDepartment': {
    writes: true,
    example: post('company', { tokens: [ref('set.bare')], departmentId: null }),
    hints: {
      tokens: fc.array(fc.constantFrom(ref('set.bare'), ref('set.foreign')), { minLength: 1, maxLength: 2 }),
    },
  },
  'POST /yewu/genset/resetcodes': {
    writes: true,
    example: post('company', { token: ref('set.bare') }),
    hints: { token: fc.constantFrom(ref('set.bare'), ref('set.foreign')) },
  },
  'POST /yewu/sub/add': {
    writes: true,
    example: async (w) => ({ identity: { token: w.sessions.viewer }, body: { code: w.refs['code.control'] } }),
  },
  'POST /yewu/sub/list': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/sub/update': {
    writes: true,
    example: post('company', { id: ref('sub.id'), rights: 'control' }),
    hints: { id: fc.constantFrom(ref('sub.id'), ref('sub.victim')) },
  },
  'POST /yewu/sub/del': {
    writes: true,
    example: post('company', { ids: [ref('sub.victim')] }),
    hints: { ids: fc.array(fc.constantFrom(ref('sub.id'), ref('sub.victim')), { minLength: 1, maxLength: 2 }) },
  },
  'POST /yewu/history/chart': {
    writes: false,
    example: post('company', { token: ref('set.own'), items: ['engine_rpm', 'gen_freq'], range: 'week' }),
  },
  'POST /yewu/devicedata/gethistory': {
    writes: false,
    example: post('company', { token: ref('set.own'), items: ['engine_rpm'], range: 'month', size: 10 }),
  },
  'POST /yewu/devicedata/getalarmhistory': {
    writes: false,
    example: post('company', { token: ref('set.own'), range: 'week', state: 'all' }),
  },
  'POST /yewu/alarm/current': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/alarm/ack': { writes: true, example: post('company', { id: 1, comment: 'Seen, on it' }) },
  'POST /yewu/alarm/shelve': {
    writes: true,
    example: post('company', { id: 1, minutes: 60, reason: 'Sensor part on order' }),
  },
  'POST /yewu/alarm/unshelve': { writes: true, example: post('company', { id: 1 }) },
  'POST /yewu/alarm/chart': { writes: false, example: post('company', { range: 'month' }) },
  'POST /yewu/alarm/analytics': { writes: false, example: post('company', { range: 'month' }) },
  'POST /yewu/alarm/analytics/export': { writes: false, example: post('company', { range: 'month' }) },
  'POST /yewu/maintain/countdown': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/exportruntimedata': {
    writes: false,
    example: post('company', { token: ref('set.own'), range: 'week', format: 'csv' }),
  },
  'POST /yewu/home/summary': { writes: false, example: post('company', {}) },
  'POST /yewu/devicedata/getmutilstatus': {
    writes: false,
    example: post('company', { tokens: [ref('set.own')], items: ['engine_rpm'] }),
  },
  'POST /yewu/genset/getNav': { writes: false, example: post('company', {}) },
  'POST /yewu/genset/getZuItem': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: { token: await group(w) } }),
  },
  'POST /yewu/genset/savedevxml': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz group ${w.n++}`, kind: 'parallel', members: [await spareSet(w), await spareSet(w)] },
    }),
    hints: {
      members: fc.array(fc.constantFrom(ref('set.own'), ref('set.bare'), ref('set.foreign')), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  },
  'POST /yewu/genset/delZu': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { token: await group(w) } }),
  },
  'POST /yewu/genset/groupCommand': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await group(w), action: 'start', password: 'Demo#2026' },
    }),
    hints: { action: fc.constantFrom('start', 'stop', 'fault_reset', 'nonsense', '') },
  },
  'POST /yewu/genset/groupCommandJob': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: { token: await group(w) } }),
  },
  'POST /yewu/genset/transferdevice': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await spareSet(w), account: 'operator@example.com', keepSubscription: 'view' },
    }),
    hints: { account: fc.constantFrom('operator@example.com', 'manager@example.com', 'nobody@example.com', '') },
  },
  'POST /yewu/genset/transfer/list': { writes: false, example: post('company', { box: 'done' }) },
  'POST /yewu/genset/transfer/accept': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await incomingTransfer(w) } }),
  },
  'POST /yewu/genset/transfer/reject': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await incomingTransfer(w) } }),
  },
  'POST /yewu/genset/transfer/revoke': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await outgoingTransfer(w) } }),
  },
  'POST /yewu/data/dieselGeneratorReport': {
    writes: false,
    example: post('company', { token: ref('set.own'), ...REPORT_PERIOD }),
  },
  'POST /yewu/data/airCompressorReport': {
    writes: false,
    example: post('company', { token: ref('set.own'), ...REPORT_PERIOD }),
  },
  'POST /yewu/baobiao/add': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: await reportForm(w) }),
  },
  'POST /yewu/baobiao/info': { writes: false, example: post('company', { token: ref('set.own'), type: 1 }) },
  'POST /yewu/genset/reportone': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/baobiao/export': {
    writes: false,
    example: async (w) => {
      await saveReport(w);
      return { identity: 'company', body: { token: w.refs['set.own'], type: 1, format: 'xlsx' } };
    },
    // A PDF embeds its fonts (a second or two each): the generated calls ask for spreadsheets mostly.
    hints: { format: fc.constantFrom('xlsx', 'xlsx', 'pdf', 'doc') },
  },
  'GET /yewu/getWeather': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['set.own']) } }),
  },
  'GET /metrics': {
    writes: false,
    example: get('none', { headers: { authorization: 'Bearer fuzz-metrics-token-0123456789' } }),
  },
  'GET /healthz': { writes: false, example: get('none') },
  'GET /readyz': { writes: false, example: get('none') },
};
