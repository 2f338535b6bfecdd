// The personal centre: nickname, message settings and permanent deletion, on a freshly registered account.
import { test, expect } from './fixtures.ts';
import { api, registerAccount, useToken } from './helpers.ts';

test('the nickname and the message settings are saved', async ({ page }) => {
  const account = await registerAccount(page.request, 'Before');
  await useToken(page.context(), account.token);
  await page.goto('/user/personal');
  await expect(page.getByTestId('profile-name')).toHaveText('Before');
  await expect(page.getByLabel('Account', { exact: true })).toHaveValue(account.username);

  await page.getByLabel('Nickname').fill('After');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('profile-name')).toHaveText('After');
  await expect(page.getByTestId('user-name')).toHaveText('After');

  await page.getByRole('tab', { name: 'Notifications' }).click();
  const sms = page.getByRole('switch', { name: 'Alarms by SMS' });
  const initially = (await sms.getAttribute('aria-checked')) === 'true';
  const saved = page.waitForResponse((r) => r.url().endsWith('/yewu/user/setMessage'));
  await sms.click();
  expect((await (await saved).json()).code).toBe(200);
  await expect(sms).toHaveAttribute('aria-checked', String(!initially));

  await page.reload();
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('switch', { name: 'Alarms by SMS' })).toHaveAttribute('aria-checked', String(!initially));
  const info = await api<{ info: { nickname: string; messages: { alarmSms: boolean } } }>(
    page.request,
    '/user/info',
    undefined,
    account.token,
  );
  expect(info.data.info).toMatchObject({ nickname: 'After', messages: { alarmSms: !initially } });
});

test('deleting the account asks for the password and a confirmation, then signs out for good', async ({ page }) => {
  const account = await registerAccount(page.request, 'Short-lived');
  await useToken(page.context(), account.token);
  await page.goto('/user/personal');
  await page.getByRole('tab', { name: 'Delete account' }).click();
  await expect(page.getByText('This cannot be undone')).toBeVisible();
  const submit = page.getByTestId('main').getByRole('button', { name: 'Delete my account' });
  await expect(submit).toBeDisabled();
  await page.getByText('I understand that my account will be deleted permanently').click();
  await submit.click();
  await expect(page.getByText('This field cannot be empty')).toBeVisible();

  await page.getByLabel('Your current password').fill(account.password);
  await submit.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete your account for good?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/user\/personal$/);

  await submit.click();
  const deleted = page.waitForResponse((r) => r.url().endsWith('/yewu/user/delUser'));
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  expect((await (await deleted).json()).code).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account has been deleted')).toBeVisible();

  const again = await api(page.request, '/user/login', { username: account.username, password: account.password });
  expect(again.code).not.toBe(200);
});
