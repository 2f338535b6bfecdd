// The route fuzzing's table, third part: notifications and webhooks, repair requests, cameras, firmware upgrades,
// fences, energy-storage stations and their templates, tactics and statistics, tracks, maintenance, SIM cards
// and the broker's authentication. Each route's known-good request, and what it may answer; the test
// (fuzz-routes.test.ts) takes the parts in order.
import fc from 'fast-check';
import { call } from '../../helpers.ts';
import {
  alarmRule,
  CAMERA_URL,
  camera,
  fullStation,
  maintItem,
  maintLink,
  maintTemplate,
  otaFile,
  otaForm,
  otaJob,
  plainStation,
  repairForm,
  repairRequest,
  simSet,
  siteRefs,
  siteTemplate,
  SITE_TEMPLATE,
  spareSet,
  UNKNOWN_LEASE,
  webhook,
  WEBHOOK_URL,
} from './fixtures.ts';
import { get, PASSWORDS, post, ref, setRefs, type RouteCase } from './world.ts';

export const OPERATION_ROUTES: Record<string, RouteCase> = {
  'POST /yewu/notice/list': { writes: false, example: post('company', { page: 1, size: 20 }) },
  'GET /yewu/notice/unread': { writes: false, example: get('company') },
  'POST /yewu/notice/read': { writes: true, example: post('company', { ids: [1], read: true }) },
  'POST /yewu/notice/readAll': { writes: true, example: post('company') },
  'POST /yewu/webhook/list': { writes: false, example: post('company') },
  'POST /yewu/webhook/save': {
    writes: true,
    example: post('company', { name: 'Desk', url: WEBHOOK_URL, events: ['alarm.raised'] }),
    hints: {
      url: fc.constantFrom(WEBHOOK_URL, 'ftp://93.184.215.14/', 'http://127.0.0.1:1/', 'http://u:p@93.184.215.14/'),
    },
  },
  'POST /yewu/webhook/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await webhook(w) } }),
  },
  'POST /yewu/webhook/deliveries': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: { id: await webhook(w) } }),
  },
  'POST /yewu/alarm/rule/list': { writes: false, example: post('company') },
  'POST /yewu/alarm/rule/save': {
    writes: true,
    example: post('company', { name: 'Fuel low', item: 'fuel_level', op: 'below', threshold: 20, level: 'warning' }),
    hints: { item: fc.constantFrom('fuel_level', 'coolant_temp', 'mode', 'no_such_value') },
  },
  'POST /yewu/alarm/rule/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await alarmRule(w) } }),
  },
  'POST /yewu/alarm/policy': { writes: false, example: post('company') },
  'POST /yewu/alarm/policy/save': {
    writes: true,
    example: post('company', { holdSeconds: 60, escalateAfterMinutes: null }),
  },
  'GET /yewu/messages/channels': { writes: false, example: get('none') },
  'GET /yewu/messages/status': { writes: false, example: get('company') },
  'POST /yewu/messages/log': { writes: false, example: post('company', { page: 1, size: 10, channel: 'sms' }) },
  'POST /yewu/messages/test': {
    writes: true,
    example: post('company', { channel: 'email', to: 'fuzz@example.com' }),
    hints: { to: fc.constantFrom('fuzz@example.com', '+8613800000000', 'not an address', '') },
  },
  'GET /yewu/messages/unsubscribe': { writes: false, example: get('none', { query: { token: '1.x' } }) },
  'POST /yewu/messages/unsubscribe': {
    writes: true,
    example: get('none', { query: { token: '1.x' } }),
    accept: [400],
  },
  'POST /yewu/messages/status/twilio': {
    writes: true,
    example: post('none', { MessageSid: 'SM1', MessageStatus: 'delivered' }),
    accept: [403],
  },
  'GET /yewu/push/key': { writes: false, example: get('company') },
  'POST /yewu/push/subscribe': {
    writes: true,
    example: post('company', {
      endpoint: 'https://93.184.215.14/push/fuzz',
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    }),
    hints: {
      endpoint: fc.constantFrom(
        'https://93.184.215.14/push/fuzz',
        'http://93.184.215.14/push',
        'https://169.254.169.254/',
      ),
    },
  },
  'POST /yewu/push/unsubscribe': {
    writes: true,
    example: async (w) => {
      const endpoint = `https://93.184.215.14/push/fuzz-${w.n++}`;
      const keys = {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      };
      await call(w.t.app, 'POST', '/push/subscribe', { token: w.sessions.company, body: { endpoint, keys } });
      return { identity: 'company', body: { endpoint } };
    },
  },
  'GET /yewu/push/devices': { writes: false, example: get('company') },
  'POST /yewu/baoxiu/add': {
    writes: true,
    example: async (w) => ({ identity: 'company', raw: await repairForm(w) }),
  },
  'GET /yewu/baoxiu/my': { writes: false, example: get('company', { query: { size: '10' } }) },
  'GET /yewu/baoxiu/list': { writes: false, example: get('company', { query: { state: 'submitted' } }) },
  'GET /yewu/baoxiu/detail': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: (await repairRequest(w)).token } }),
  },
  'POST /yewu/baoxiu/update': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: (await repairRequest(w)).token, state: 'accepted', note: 'Monday' },
    }),
  },
  'GET /yewu/baoxiu/picture': {
    writes: false,
    example: async (w) => {
      const r = await repairRequest(w);
      return { identity: 'company', query: { token: r.token, name: r.name, thumb: '1' } };
    },
  },
  'POST /yewu/video/list': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/video/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await spareSet(w), name: 'Gate', url: CAMERA_URL, username: 'viewer', password: 'secret' },
    }),
    hints: { url: fc.constantFrom(CAMERA_URL, 'rtsp://127.0.0.1:9/live;id', 'file:///etc/passwd', 'http://x y') },
  },
  'POST /yewu/video/update': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { ...(await camera(w)), name: 'Yard' } }),
  },
  'POST /yewu/video/del': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: await camera(w) }),
  },
  // Without a camera to reach here, a watch that gets as far as the camera is answered 502 (or 503 where
  // ffmpeg is missing): what matters is that nothing else comes back.
  'POST /yewu/video/watch': {
    writes: false,
    example: async (w) => ({ identity: 'company', body: await camera(w) }),
    accept: [200, 502, 503, 504],
  },
  'POST /yewu/video/renew': {
    writes: false,
    example: post('company', { lease: UNKNOWN_LEASE }),
    accept: [404],
  },
  'POST /yewu/video/leave': { writes: false, example: post('company', { lease: UNKNOWN_LEASE }), accept: [200, 404] },
  'GET /yewu/video/live/:lease/:file': {
    writes: false,
    example: get('none', { params: { lease: UNKNOWN_LEASE, file: 'index.m3u8' } }),
    accept: [404],
  },
  'POST /yewu/video/live/:lease/leave': {
    writes: false,
    example: get('none', { params: { lease: UNKNOWN_LEASE } }),
    accept: [204],
  },
  'POST /yewu/maintain/plan': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/ota/file/upload': {
    writes: true,
    example: async (w) => ({ identity: 'company', raw: otaForm(`2.0.${w.n++}`) }),
  },
  'GET /yewu/ota/file/list': { writes: false, example: get('company') },
  'POST /yewu/ota/file/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await otaFile(w) } }),
  },
  'POST /yewu/ota/job/assign': {
    writes: true,
    example: async (w) => {
      const job = await otaJob(w);
      await call(w.t.app, 'POST', '/ota/job/cancel', { token: w.sessions.company, body: { id: job.jobId } });
      return { identity: 'company', body: { fileId: job.fileId, tokens: [job.token], concurrency: 2 } };
    },
  },
  'GET /yewu/ota/job/list': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: (await otaJob(w)).token } }),
  },
  'POST /yewu/ota/job/cancel': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: (await otaJob(w)).jobId } }),
  },
  'GET /yewu/ota/download/:token': {
    writes: false,
    example: get('none', { params: { token: 'x'.repeat(32) } }),
    accept: [404],
  },
  'POST /yewu/genset/fence': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/genset/updateFence': {
    writes: true,
    example: post('company', {
      token: ref('set.own'),
      fence: { type: 'circle', center: { lat: 41, lon: 29 }, radiusM: 800 },
    }),
    hints: { token: setRefs },
  },
  'GET /yewu/site/list': {
    writes: false,
    example: get('company', { query: { size: '10', name: 'fuzz' } }),
  },
  'GET /yewu/site/getInfo/:token': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { token: String(w.refs['site.own']) } }),
    hints: { token: siteRefs },
  },
  'POST /yewu/site/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz station ${w.n++}`, timeZone: 'Europe/Istanbul', capacityKwh: 100, ratingKw: 50 },
    }),
    hints: { modemId: fc.constantFrom(ref('modem.key'), 'NOPE'), timeZone: fc.constantFrom('UTC', 'Mars/Base') },
  },
  'POST /yewu/site/setDepartment': {
    writes: true,
    example: post('company', { tokens: [ref('site.own')], departmentId: null }),
    hints: { tokens: fc.array(fc.constantFrom(ref('site.own'), ref('site.foreign')), { minLength: 1, maxLength: 2 }) },
  },
  'POST /yewu/site/edit': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: {
        token: w.refs['site.own'],
        name: 'Fuzz own station',
        timeZone: 'Asia/Shanghai',
        capacityKwh: 215,
        ratingKw: 100,
        address: 'Quay 3',
      },
    }),
    hints: { token: fc.constantFrom(ref('site.own'), ref('site.foreign')), modemId: fc.constantFrom('NOPE') },
  },
  'POST /yewu/site/del': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { token: await plainStation(w, `Fuzz gone ${w.n++}`) } }),
    hints: { token: fc.constantFrom(ref('site.victim'), ref('site.foreign')) },
  },
  'GET /yewu/site/devices': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['site.own']) } }),
    hints: { token: siteRefs },
  },
  'GET /yewu/site/log': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['site.own']) } }),
    hints: { token: siteRefs },
  },
  'GET /yewu/site/logInfo': {
    writes: false,
    example: async (w) => {
      const token = String(w.refs['site.own']);
      const log = await call(w.t.app, 'GET', '/site/log', { token: w.sessions.company, query: { token } });
      return { identity: 'company', query: { token, id: String(log.data.list[0].id) } };
    },
    hints: { token: siteRefs },
  },
  'GET /yewu/site/logRunRecord': {
    writes: false,
    example: async (w) => ({ identity: 'company', query: { token: String(w.refs['site.own']), size: '10' } }),
    hints: { token: siteRefs },
  },
  'POST /yewu/ems/template/list': { writes: false, example: post('company', { size: 10 }) },
  'POST /yewu/ems/template/save': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { name: `Fuzz tariff ${w.n++}`, ...SITE_TEMPLATE } }),
  },
  'POST /yewu/ems/template/info': { writes: false, example: post('company', { id: ref('template.own') }) },
  'POST /yewu/ems/template/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await siteTemplate(w) } }),
    hints: { id: fc.constantFrom(ref('template.own'), 1, 2) },
  },
  'POST /yewu/ems/sendTactic': {
    writes: true,
    example: async (w) => {
      const station = await fullStation(w);
      return {
        identity: 'company',
        body: {
          token: station.token,
          strategy: 'timeOfUse',
          templateId: station.templateId,
          password: PASSWORDS.company,
        },
      };
    },
    hints: {
      token: siteRefs,
      templateId: fc.constantFrom(ref('template.own'), 1),
      password: fc.constantFrom(ref('password'), 'wrong#2026'),
    },
  },
  'POST /yewu/ems/demandResponse': {
    writes: true,
    example: async (w) => {
      const station = await fullStation(w, true);
      const now = Date.now();
      return { identity: 'company', body: { token: station.token, start: now, end: now + 3_600_000, kw: 50 } };
    },
    hints: { token: siteRefs },
  },
  'POST /yewu/ems/stats': {
    writes: false,
    example: post('company', { token: ref('site.own'), granularity: 'month', date: '2026-01' }),
    hints: { token: siteRefs, date: fc.constantFrom('2026-01-31', '2026-02', '2026', '2026-13', 'x') },
  },
  'POST /yewu/ems/stats/export': {
    writes: false,
    example: post('company', { token: ref('site.own'), granularity: 'year', date: '2026', format: 'xlsx' }),
    hints: { token: siteRefs, date: fc.constantFrom('2026-01-31', '2026-02', '2026') },
  },
  'POST /yewu/ems/alarm/current': {
    writes: false,
    example: post('company', { token: ref('site.own') }),
    hints: { token: siteRefs },
  },
  'POST /yewu/ems/alarm/history': {
    writes: false,
    example: post('company', { token: ref('site.own'), state: 'all' }),
    hints: { token: siteRefs },
  },
  'POST /yewu/genset/guiji': {
    writes: false,
    example: post('company', { token: ref('set.own'), start: 0, end: 86_400_000, zoom: 10 }),
  },
  'POST /yewu/maintain/item/save': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: w.refs['set.own'], name: `Fuzz item ${w.n++}`, cycleDays: 30, remindDays: 5, cycleHours: 250 },
    }),
    hints: { token: setRefs },
  },
  'POST /yewu/maintain/item/delete': {
    writes: true,
    example: async (w) => {
      const item = await maintItem(w);
      return { identity: 'company', body: { token: item.token, id: item.id } };
    },
  },
  'POST /yewu/maintain/item/toggle': {
    writes: true,
    example: async (w) => {
      const item = await maintItem(w);
      return { identity: 'company', body: { token: item.token, id: item.id, enabled: false } };
    },
  },
  'POST /yewu/maintain/task/done': {
    writes: true,
    example: async (w) => {
      const item = await maintItem(w);
      return {
        identity: 'company',
        body: { token: item.token, id: item.taskId, actualDate: '2026-01-02', runHours: 10, remark: 'Fuzz' },
      };
    },
  },
  'POST /yewu/maintain/history': { writes: false, example: post('company', { token: ref('set.own') }) },
  'POST /yewu/maintain/tasks': { writes: false, example: post('company', { state: 'all' }) },
  'POST /yewu/maintain/counts': { writes: false, example: post('company', {}) },
  'POST /yewu/maintain/template/list': { writes: false, example: post('company', {}) },
  'POST /yewu/maintain/template/save': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz template ${w.n++}`, model: 'FZ-1', items: [{ name: 'Oil', cycleDays: 90 }] },
    }),
  },
  'POST /yewu/maintain/template/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await maintTemplate(w) } }),
  },
  'POST /yewu/maintain/template/apply': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { id: await maintTemplate(w), tokens: [await spareSet(w)] },
    }),
  },
  'POST /yewu/maintain/mtoken/create': {
    writes: true,
    example: post('company', { token: ref('set.own'), days: 7 }),
  },
  'POST /yewu/maintain/mtoken/revoke': {
    writes: true,
    example: async (w) => {
      const link = await maintLink(w);
      return { identity: 'company', body: { token: link.token, id: link.id } };
    },
  },
  'POST /yewu/iotcard/getinfo': {
    writes: false,
    example: post('company', { token: ref('set.own'), month: '2026-03' }),
  },
  'POST /yewu/iotcard/setPlan': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { token: await simSet(w), sizeMb: 500, startDay: 5, alarmShare: 75 },
    }),
  },
  'POST /yewu/maintain/public': {
    writes: false,
    example: async (w) => ({ identity: 'none', body: { mtoken: (await maintLink(w)).mtoken } }),
  },
  'POST /mqtt/auth': {
    writes: false,
    example: async (w) => ({
      identity: 'platform',
      body: { username: w.refs['modem.key'], password: w.refs['modem.secret'] },
    }),
    hints: {
      username: fc.constantFrom(ref('modem.key'), 'console', 'nobody'),
      password: fc.constantFrom(ref('modem.secret'), 'wrong'),
    },
  },
};
