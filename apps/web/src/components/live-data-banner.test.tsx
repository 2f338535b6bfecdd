import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18next, initI18n, loadLocaleResources } from '../i18n/index.ts';
import { InterruptionNotice } from './live-data-banner.tsx';

function render(down: string[]): string {
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18next}>
      <InterruptionNotice down={down} />
    </I18nextProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en-US', true);
  i18next.addResourceBundle('zh-CN', 'translation', await loadLocaleResources('zh-CN'), true, true);
});

describe('the notice of interrupted live data', () => {
  it('says nothing while the server reaches everything', () => {
    expect(render([])).toBe('');
  });
  it('says live data is interrupted, and by what, in the user’s language', async () => {
    const html = render(['database']);
    expect(html).toContain('Live data is interrupted');
    expect(html).toContain('cannot reach its database');
    expect(html).not.toContain('MQTT');
    await i18next.changeLanguage('zh-CN');
    const zh = render(['broker', 'database']);
    expect(zh).toContain('实时数据已中断');
    expect(zh).toContain('MQTT');
    await i18next.changeLanguage('en-US');
  });
});
