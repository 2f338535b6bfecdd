// Creating an account and resetting a forgotten password through the pages, with codes from the outbox.
import { test, expect } from './fixtures.ts';
import { apiLogin, freshMobile, outboxCode, spareAccount } from './helpers.ts';

test('a new account registers with a code and is signed in', async ({ page }) => {
  const username = freshMobile();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await page.getByLabel('Mobile number or e-mail').fill(username);
  const asked = Date.now() - 1000;
  await page.getByTestId('send-code').click();
  const code = await outboxCode(username, 'register', asked);
  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('Nickname').fill('Rita Register');
  await page.getByLabel('Password', { exact: true }).fill('Rita#2026');
  await page.getByLabel('Repeat password').fill('Rita#2027');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('The two passwords do not match')).toBeVisible();
  await expect(page.getByText('Please accept the user agreement and the privacy policy')).toBeVisible();
  await page.getByLabel('Repeat password').fill('Rita#2026');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByTestId('welcome')).toContainText('Rita Register');
});

test('a forgotten password is reset with a code', async ({ page }) => {
  test.slow();
  const account = await spareAccount();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forget$/);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Mobile number or e-mail').fill(account.username);
  const asked = Date.now() - 1000;
  await page.getByTestId('send-code').click();
  const code = await outboxCode(account.username, 'reset', asked);
  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('Password', { exact: true }).fill('Reset#2026');
  await page.getByLabel('Repeat password').fill('Reset#2026');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been reset. Sign in with the new one.')).toBeVisible();
  expect((await apiLogin(page.request, { username: account.username, password: 'Reset#2026' })).utoken).toBeTruthy();
});
