// The read-only viewer meets no dead end: "New group" says why it cannot be used when the viewer manages no
// set, remote configuration says why its inputs are disabled, and the address of a station the viewer cannot
// reach is a whole not-found page, not a station header with empty figures.
import { test, expect } from './fixtures.ts';
import { api, apiLogin, openSignedIn, VIEWER } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

function setToken(name: string): string {
  const sets = JSON.parse(process.env.E2E_SETS ?? '{}') as Record<string, string>;
  const token = sets[name];
  if (!token) throw new Error(`no demo set ${name}`);
  return token;
}

type StationList = { list: { token: string; name: string }[] };

test('the viewer is told why, and a station out of reach is a not-found page', async ({ page }) => {
  test.setTimeout(120_000);
  const viewer = await openSignedIn(page, VIEWER, '/genset/groups');
  // the first page of a fresh browser loads the console's scripts: more time than a later step needs
  const create = page.getByTestId('group-new');
  await expect(create).toBeDisabled({ timeout: 30_000 });
  await expect(page.getByTestId('group-new-reason')).toHaveText(
    'A group is made of sets you manage, and you manage none: ask a company administrator to make the group or to give you manage rights.',
  );

  await page.goto(`/crewmanage/gconfig?token=${encodeURIComponent(setToken('Data centre backup'))}`);
  const notice = page.getByTestId('view-only-notice');
  await expect(notice).toContainText("You may view this set's settings but not change them", { timeout: 30_000 });
  await expect(notice).toContainText("changing a controller's settings needs control rights on the set");

  // a station of the company the viewer does not see (or, without any, an address of none)
  const manager = (await apiLogin(page.request, MANAGER)).utoken;
  const all = (await api<StationList>(page.request, '/site/list?page=1&size=50', undefined, manager)).data?.list ?? [];
  const seen = await api<StationList>(page.request, '/site/list?page=1&size=50', undefined, viewer);
  const visible = new Set((seen.code === 200 ? seen.data.list : []).map((s) => s.token));
  const away = all.find((s) => !visible.has(s.token))?.token ?? 'S0000000000000000000000000000000';
  await page.goto(`/ems/index?token=${encodeURIComponent(away)}`);
  const missing = page.getByTestId('station-unreachable');
  await expect(missing).toContainText('Station not found', { timeout: 30_000 });
  await expect(missing).toContainText('This station does not exist, or it is not one of the stations you may see.');
  // nothing of a station around it: no totals, no menu, no "Not found" inside a station frame
  await expect(page.getByTestId('ems-menu')).toHaveCount(0);
  await expect(page.getByText(/kWh/)).toHaveCount(0);
});
