// Too many sign-in attempts: the page says, in the user's language, how many seconds to wait, and the button
// counts them down. The test runs a small server of its own with a low limit, so that the other tests'
// sign-ins from the same address are not counted against it.
import { test, expect } from './fixtures.ts';
import { toast } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  own = await startOwnServer('limits', { DEMO_FLEET: '0', RATE_LIMIT_SIGN_IN: '2/1m' });
});

test.afterAll(async () => own?.close());

test('the third sign-in within a minute is told, in Spanish, to wait, and the button counts down', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'es-ES'));
  await page.goto(`${own!.server.url}/login`);
  const submit = page.getByTestId('login-submit');
  await expect(submit).toHaveText('Iniciar sesión');
  await page.locator('#login_username').fill('viewer@example.com');
  await page.locator('#login_password').fill('Wrong#2026x');
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = page.waitForResponse((r) => r.url().endsWith('/yewu/user/login'));
    await submit.click();
    expect(((await (await answer).json()) as { code: number }).code).toBe(400);
  }
  const answer = page.waitForResponse((r) => r.url().endsWith('/yewu/user/login'));
  await submit.click();
  const response = await answer;
  const body = (await response.json()) as { code: number; msg: string; data: { retryAfter: number } };
  expect(body.code).toBe(429);
  expect(response.headers()['retry-after']).toBe(String(body.data.retryAfter));
  await expect(toast(page)).toHaveText(
    `Demasiadas solicitudes. Espere ${body.data.retryAfter} s y vuelva a intentarlo.`,
  );
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveText(/^Vuelve a intentarlo en \d+ s$/);
  const shown = Number(/\d+/.exec((await submit.textContent()) ?? '')?.[0]);
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThanOrEqual(body.data.retryAfter);
});
