// Signing in and out, deep links, unknown paths.
import { test, expect } from './fixtures.ts';
import { ADMIN, openSignedIn, outboxCode, PERSONAL, signInWithPassword, toast, VIEWER } from './helpers.ts';

test('signs in with a password and lands on Home', async ({ page }) => {
  await page.goto('/login');
  await signInWithPassword(page, ADMIN);
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByTestId('welcome')).toContainText('Administrator');
  await expect(page.getByTestId('user-name')).toHaveText('Administrator');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'Admin-Token')?.value).toBeTruthy();
  expect(cookies.find((c) => c.name === 'companyid')?.value).toBeTruthy();
  expect(cookies.find((c) => c.name === 'indextemplate')?.value).toBeTruthy();
});

test('signs in with an SMS code read from the development outbox', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-mode').getByText('SMS code').click();
  await page.getByLabel('Mobile number or e-mail').fill(PERSONAL.username);
  const asked = Date.now() - 1000;
  await page.getByTestId('send-code').click();
  await expect(page.getByTestId('send-code')).toHaveText(/Resend in \d+ s/);
  await expect(page.getByTestId('send-code')).toBeDisabled();
  const code = await outboxCode(PERSONAL.username, 'login', asked);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByTestId('welcome')).toBeVisible();
});

test('a wrong password shows the server message and stays on the sign-in page', async ({ page }) => {
  await page.goto('/login');
  const answer = page.waitForResponse((r) => r.url().endsWith('/yewu/user/login'));
  await signInWithPassword(page, { username: VIEWER.username, password: 'Wrong#2026x' });
  const body = (await (await answer).json()) as { code: number; msg: string };
  expect(body.code).not.toBe(200);
  expect(body.msg).toBeTruthy();
  await expect(toast(page)).toHaveText(body.msg);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('an unsigned deep link goes to sign-in and comes back after it', async ({ page }) => {
  await page.goto('/help/list?from=link');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/help/list?from=link');
  await signInWithPassword(page, VIEWER);
  await expect(page).toHaveURL(/\/help\/list\?from=link$/);
  await expect(page.getByTestId('help-list')).toBeVisible();
});

test('a signed-in visit to /login or / goes to Home', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/login');
  await expect(page).toHaveURL(/\/index$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/index$/);
});

test('exit signs out and returns to sign-in with the current page as redirect', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/help/list');
  await expect(page.getByTestId('help-list')).toBeVisible();
  const logout = page.waitForResponse((r) => r.url().endsWith('/yewu/logout'));
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  expect((await (await logout).json()).code).toBe(200);
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/help/list');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'Admin-Token')).toBeUndefined();
  // the old page is no longer reachable
  await page.goto('/index');
  await expect(page).toHaveURL(/\/login\?redirect=/);
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByText('Sorry, the page you visited does not exist.')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/index$/);
});

test('public pages open without signing in', async ({ page }) => {
  for (const [path, heading] of [
    ['/xieyis', 'User agreement'],
    ['/yinsi', 'Privacy policy'],
    ['/404', '404'],
    ['/test', 'Test page'],
    ['/showvideo', 'Video player'],
    ['/register', 'Create an account'],
    ['/forget', 'Reset your password'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  }
});
