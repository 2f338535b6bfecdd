// The password dialog of the user menu: each rule of spec 5, cancel clears, a server error keeps it open,
// and a valid change succeeds. A freshly registered account keeps the demo accounts untouched.
import { test, expect } from './fixtures.ts';
import { apiLogin, NEW_ACCOUNT_PASSWORD, registerAccount, toast, useToken } from './helpers.ts';

test('change password checks every rule and succeeds with valid data', async ({ page }) => {
  const account = await registerAccount(page.request, 'Password tester');
  await useToken(page.context(), account.token);
  await page.goto('/index');
  await expect(page.getByTestId('welcome')).toContainText('Password tester');

  let submitted = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/yewu/user/password')) submitted += 1;
  });

  const open = async () => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    await expect(dialog).toBeVisible();
  };
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  const oldPassword = dialog.getByLabel('Old password');
  const newPassword = dialog.getByLabel('New password', { exact: true });
  const repeat = dialog.getByLabel('Repeat new password');
  const confirm = dialog.getByRole('button', { name: 'Confirm' });
  const errors = dialog.locator('.ant-form-item-explain-error');
  const rule = '8 to 20 characters combining letters, digits and special characters';

  await open();
  await confirm.click();
  await expect(errors).toHaveText([
    'Please enter your old password',
    'Please enter a new password',
    'Please enter the password again',
  ]);

  await oldPassword.fill(account.password);
  for (const weak of ['Ab#1', 'abcdefgh12', 'abcdefgh#!', '12345678#!', 'Abcdefgh#1234567890xy']) {
    await newPassword.fill(weak);
    await expect(dialog.getByText(rule, { exact: true }).locator('visible=true').first()).toBeVisible();
    await expect(errors.filter({ hasText: rule })).toHaveCount(1);
  }
  await newPassword.fill('Better#2026');
  await repeat.fill('Better#2027');
  await confirm.click();
  await expect(errors).toHaveText(['The two passwords do not match']);
  expect(submitted).toBe(0);

  // cancel closes and clears
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await open();
  await expect(oldPassword).toHaveValue('');
  await expect(newPassword).toHaveValue('');
  await expect(repeat).toHaveValue('');

  // the server's refusal is shown and the dialog stays
  await oldPassword.fill('Wrong#2026x');
  await newPassword.fill('Better#2026');
  await repeat.fill('Better#2026');
  const refused = page.waitForResponse((r) => r.url().endsWith('/yewu/user/password'));
  await confirm.click();
  const body = (await (await refused).json()) as { code: number; msg: string };
  expect(body.code).not.toBe(200);
  await expect(toast(page)).toHaveText(body.msg);
  await expect(dialog).toBeVisible();

  // a valid change succeeds, clears and closes
  await oldPassword.fill(NEW_ACCOUNT_PASSWORD);
  await confirm.click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();
  await expect(dialog).toBeHidden();
  await open();
  await expect(oldPassword).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const again = await apiLogin(page.request, { username: account.username, password: 'Better#2026' });
  expect(again.utoken).toBeTruthy();
});
