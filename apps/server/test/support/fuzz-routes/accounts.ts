// The route fuzzing's table, first part: signing in and out, the account, companies, roles, invitations and
// members, the operation log, departments, people and help. Each route's known-good request, and what it may
// answer; the test (fuzz-routes.test.ts) takes the parts in order.
import fc from 'fast-check';
import { call, freshUser, lastCode } from '../../helpers.ts';
import {
  applicant,
  companyRole,
  fuzzApplication,
  fuzzDepartment,
  fuzzInvite,
  fuzzRole,
  FUZZ_COMPANY,
  logoForm,
  member,
  throwaway,
} from './fixtures.ts';
import { get, post, ref, type RouteCase } from './world.ts';

export const ACCOUNT_ROUTES: Record<string, RouteCase> = {
  'POST /yewu/user/login': {
    writes: true,
    example: post('none', { username: 'operator@example.com', password: 'Demo#2026' }),
    hints: { password: fc.constantFrom('Demo#2026', 'Admin#2026') },
  },
  'POST /yewu/user/codelogin': {
    writes: true,
    example: async (w) => {
      await call(w.t.app, 'POST', '/sendMessage', { body: { username: 'operator@example.com' } });
      return {
        identity: 'none',
        body: { username: 'operator@example.com', code: lastCode(w.t, 'operator@example.com') },
      };
    },
  },
  'POST /yewu/sendMessage': { writes: true, example: post('none', { username: 'viewer@example.com' }) },
  'POST /yewu/user/embedCode': { writes: true, example: post('company') },
  'POST /yewu/user/embedLogin': {
    writes: true,
    example: async (w) => {
      const token = (await throwaway(w)).token;
      const issued = await call(w.t.app, 'POST', '/user/embedCode', { token });
      return { identity: 'none', body: { code: issued.data.code } };
    },
  },
  'POST /yewu/logout': {
    writes: true,
    endsSession: true,
    example: async (w) => ({ identity: { token: (await throwaway(w)).token } }),
  },
  'GET /yewu/user/info': { writes: false, example: get('company') },
  'GET /yewu/getRoute': { writes: false, example: get('company') },
  'POST /yewu/user/password': {
    writes: true,
    endsSession: true,
    example: async (w) => {
      const u = await throwaway(w);
      return {
        identity: { token: u.token },
        body: { password: u.password, newPassword: 'Next#2026x', newPasswords: 'Next#2026x' },
      };
    },
  },
  'POST /yewu/user/register': {
    writes: true,
    example: async (w) => {
      const username = `fuzz-register-${w.n++}@example.com`;
      await call(w.t.app, 'POST', '/sendMessage', { body: { username, purpose: 'register' } });
      const code = lastCode(w.t, username);
      return {
        identity: 'none',
        body: { username, code, newPassword: 'Fresh#2026', newPasswords: 'Fresh#2026', nickname: 'Fuzz' },
      };
    },
  },
  'POST /yewu/user/forgetPassword': {
    writes: true,
    example: async (w) => {
      const u = await freshUser(w.t);
      await call(w.t.app, 'POST', '/sendMessage', { body: { username: u.account, purpose: 'reset' } });
      const code = lastCode(w.t, u.account);
      return {
        identity: 'none',
        body: { username: u.account, code, newPassword: 'Fresh#2026', newPasswords: 'Fresh#2026' },
      };
    },
  },
  'POST /yewu/user/delUser': {
    writes: true,
    endsSession: true,
    example: async (w) => {
      const u = await throwaway(w);
      return { identity: { token: u.token }, body: { password: u.password } };
    },
  },
  'POST /yewu/user/setMessage': { writes: true, example: post('company', { alarmSms: true, alarmEmail: false }) },
  'POST /yewu/user/updateProfile': { writes: true, example: post('company', { nickname: 'Mia Manager' }) },
  'GET /yewu/company/getName': { writes: false, example: get('none', { query: { hostname: 'demo.localhost' } }) },
  'GET /yewu/company/getlogo': { writes: false, example: get('none', { query: { hostname: 'demo.localhost' } }) },
  'GET /yewu/company/getinfo/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(w.refs['company.own']) } }),
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  // Administration: companies (the platform administrator), the department tree and the company's people.
  'GET /yewu/company/list': { writes: false, example: get('platform', { query: { search: 'demo' } }) },
  'POST /yewu/company/add': {
    writes: true,
    example: async (w) => ({ identity: 'platform', body: { ...FUZZ_COMPANY, name: `Fuzz company ${w.n++}` } }),
    hints: {
      hosts: fc.constantFrom([], ['demo.localhost'], ['fuzz.example.com']),
      timeZone: fc.constantFrom('UTC', 'Mars/Base'),
    },
  },
  'POST /yewu/company/update': {
    writes: true,
    example: post('platform', { ...FUZZ_COMPANY, id: ref('company.other'), name: 'Fuzz other company' }),
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  'POST /yewu/company/del': {
    writes: true,
    example: async (w) => {
      const added = await call(w.t.app, 'POST', '/company/add', {
        token: w.sessions.platform,
        body: { ...FUZZ_COMPANY, name: `Fuzz doomed ${w.n++}` },
      });
      return { identity: 'platform', body: { id: added.data.id as number } };
    },
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  'GET /yewu/company/getIdentifie/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(w.refs['company.own']) } }),
    hints: { id: fc.constantFrom(ref('company.own'), ref('company.other')) },
  },
  'GET /yewu/company/getUserCompanyList': { writes: false, example: get('company') },
  'POST /yewu/company/uploadLogo': {
    writes: true,
    example: async () => ({ identity: 'platform', raw: logoForm() }),
  },
  'GET /yewu/role/list': { writes: false, example: get('company', { query: { name: 'a', status: '1' } }) },
  'GET /yewu/role/info/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(await companyRole(w, 'viewer')) } }),
  },
  'POST /yewu/role/save': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { name: `Fuzz role ${w.n++}`, permissions: ['genset:view', 'alarm:view'], dataScope: 'company' },
    }),
  },
  'POST /yewu/role/update': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { id: await fuzzRole(w), name: `Fuzz renamed ${w.n++}`, permissions: ['genset:view'], dataScope: 'self' },
    }),
  },
  'POST /yewu/role/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzRole(w) } }),
  },
  'POST /yewu/user/roleStatus': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzRole(w), status: 0 } }),
  },
  'GET /yewu/role/getDataAuthRole': { writes: false, example: get('company') },
  'POST /yewu/invite/create': {
    writes: true,
    example: async () => ({ identity: 'company', body: { expiresAt: Date.now() + 3_600_000, maxUses: 3 } }),
  },
  'GET /yewu/invite/list': { writes: false, example: get('company') },
  'POST /yewu/invite/revoke': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: (await fuzzInvite(w)).id } }),
  },
  'GET /yewu/invite/info/:code': {
    writes: false,
    example: async (w) => ({ identity: 'none', params: { code: (await fuzzInvite(w)).code } }),
  },
  'POST /yewu/invite/apply': {
    writes: true,
    example: async (w) => ({ identity: { token: await applicant(w) }, body: { code: (await fuzzInvite(w)).code } }),
  },
  'GET /yewu/member/list': { writes: false, example: get('company', { query: { status: 'pending' } }) },
  'POST /yewu/member/audit': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzApplication(w), action: 'reject' } }),
  },
  'GET /yewu/log/list': { writes: false, example: get('company', { query: { keyword: 'example' } }) },
  'POST /yewu/log/export': { writes: false, example: post('company', { matter: 'log.signedIn' }) },
  'GET /yewu/dept/list': { writes: false, example: get('company') },
  'POST /yewu/dept/add': { writes: true, example: post('company', { name: 'Fuzz department' }) },
  'POST /yewu/dept/update': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzDepartment(w), name: 'Fuzz renamed' } }),
  },
  'POST /yewu/dept/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { id: await fuzzDepartment(w) } }),
  },
  'GET /yewu/user/list': {
    writes: false,
    example: get('company', { query: { search: 'example', status: 'enabled' } }),
  },
  'GET /yewu/user/info/:id': {
    writes: false,
    example: async (w) => ({ identity: 'company', params: { id: String(w.refs['user.manager']) } }),
  },
  'POST /yewu/user/add': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { account: `fuzz${w.n++}@example.com`, roleId: await companyRole(w, 'operator'), password: 'Temp#2026x' },
    }),
  },
  'POST /yewu/user/update': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id, nickname: 'Fuzzed' } }),
  },
  'POST /yewu/user/updateUserid': {
    writes: true,
    example: async (w) => ({
      identity: 'company',
      body: { userId: (await member(w)).id, roleId: await companyRole(w, 'viewer') },
    }),
  },
  'POST /yewu/user/delete': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id } }),
  },
  'POST /yewu/user/resetpassword': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id, password: 'Reset#2026x' } }),
  },
  'POST /yewu/user/userStatus': {
    writes: true,
    example: async (w) => ({ identity: 'company', body: { userId: (await member(w)).id, status: 'disabled' } }),
  },
  'GET /yewu/help/list': { writes: false, example: get('company') },
  'GET /yewu/help/info': {
    writes: false,
    example: async (w) => {
      const list = await call(w.t.app, 'GET', '/help/list', { token: w.sessions.company });
      return { identity: 'company', query: { slug: list.data[0].slug as string } };
    },
  },
};
