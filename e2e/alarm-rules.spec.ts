// A company administrator keeps threshold rules, in English and in Chinese: a new rule chosen from the values its
// sets report is listed with its condition, delay and clearing point in the reader's language; a rule with no value
// chosen is refused beside the field; a rule deleted leaves the list. The company’s episode hold time and escalation
// are kept (English).
import { test, expect } from './fixtures.ts';
import { api, apiLogin, chooseOption, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

const TEXT = {
  'en-US': {
    add: 'New rule',
    name: 'Name',
    item: 'Value watched',
    threshold: 'Threshold',
    hysteresis: 'Hysteresis',
    search: 'Fuel',
    fuel: 'Fuel level (%)',
    save: 'Save',
    required: 'This field cannot be empty',
    rule: 'Day tank low',
    condition: 'Fuel level below 20 %',
    detail: 'raised after 1 min · clears at 25 %',
    scope: 'Every set',
    delete: 'Delete',
    ok: 'OK',
  },
  'zh-CN': {
    add: '新建规则',
    name: '名称',
    item: '监视数据项',
    threshold: '阈值',
    hysteresis: '回差',
    search: '燃油',
    fuel: '燃油液位 (%)',
    save: /保\s?存$/,
    required: '不能为空',
    rule: '日用油箱低',
    condition: '燃油液位 低于 20 %',
    detail: '持续 1 分钟后报警 · 25 % 时解除',
    scope: '全部机组',
    delete: /删\s?除/,
    ok: /确\s?定|OK/,
  },
};

for (const [lang, text] of Object.entries(TEXT)) {
  test(`${lang}: a threshold rule is added from the sets' values, listed in words, and deleted`, async ({ page }) => {
    await page.addInitScript((l) => localStorage.setItem('lang', l), lang);
    const manager = await apiLogin(page.request, MANAGER);
    await useToken(page.context(), manager.utoken);
    await page.goto('/system/alarmRules');
    const rules = page.getByTestId('alarm-rules-page');
    await expect(rules).toBeVisible({ timeout: 60_000 });

    await rules.getByTestId('alarm-rule-add').click();
    const form = page.getByTestId('alarm-rule-form');
    await form.getByLabel(text.name).fill(text.rule);
    // no value chosen: refused beside the field
    await page.getByRole('dialog').getByRole('button', { name: text.save }).click();
    await expect(form.locator('.ant-form-item-explain-error').first()).toHaveText(text.required);
    // (a long list: the value is searched for, as a person would)
    await form.getByTestId('alarm-rule-item').locator('input').fill(text.search);
    await chooseOption(page, form.getByTestId('alarm-rule-item'), text.fuel);
    await form.getByLabel(text.threshold).fill('20');
    await form.getByLabel(text.hysteresis).fill('5');
    await page.getByRole('dialog').getByRole('button', { name: text.save }).click();
    await expect(form).toBeHidden();

    const row = rules.getByRole('row', { name: new RegExp(text.rule) });
    await expect(row).toContainText(text.condition);
    await expect(row).toContainText(text.detail);
    await expect(row).toContainText(text.scope);

    await row.getByRole('button', { name: text.delete }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: text.ok }).click();
    await expect(row).toBeHidden();
    const left = await api<{ list: { name: string }[] }>(page.request, '/alarm/rule/list', {}, manager.utoken);
    expect(left.data.list.map((r) => r.name)).not.toContain(text.rule);
  });
}

test('the company’s episodes and escalation are kept: escalated after 15 minutes to the person chosen', async ({
  page,
}) => {
  const manager = await apiLogin(page.request, MANAGER);
  await useToken(page.context(), manager.utoken);
  try {
    await page.goto('/system/alarmRules');
    const card = page.getByTestId('alarm-policy');
    await expect(card.getByLabel('Hold time')).toHaveValue('60', { timeout: 60_000 });
    await card.getByLabel('Escalate unacknowledged alarms').click();
    await card.getByLabel('Escalate after').fill('15');
    // naming no one is refused beside the field
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.locator('.ant-form-item-explain-error')).toHaveText('This field cannot be empty');
    await chooseOption(page, card.getByTestId('alarm-policy-people'), 'Mia Manager');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.ant-message')).toContainText('Saved');
    await page.reload();
    await expect(card.getByLabel('Escalate after')).toHaveValue('15', { timeout: 60_000 });
    await expect(card.getByTestId('alarm-policy-people')).toContainText('Mia Manager');
  } finally {
    // the shared demo company keeps its default policy
    await api(page.request, '/alarm/policy/save', { holdSeconds: 60, escalateAfterMinutes: null }, manager.utoken);
  }
});
