import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WeatherResponse } from '@genset/protocol';
import { i18next, initI18n } from '../../i18n/index.ts';
import { WeatherView } from './weather-line.tsx';

const none: WeatherResponse = {
  state: 'notConfigured',
  source: null,
  temp: null,
  celsius: null,
  pressure: null,
  humidity: null,
  observedAt: null,
  fetchedAt: null,
};

function render(data: WeatherResponse | undefined, syncError: string | null = null): string {
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18next}>
      <WeatherView data={data} syncError={syncError} onSync={() => undefined} />
    </I18nextProvider>,
  );
}

beforeAll(async () => {
  await initI18n('en-US', true);
});

describe('the weather in a set’s top bar', () => {
  it('is not there at all without a weather service or sensors, without a position, or before it is known', () => {
    expect(render(none)).toBe('');
    expect(render({ ...none, state: 'noPosition' })).toBe('');
    expect(render(undefined)).toBe('');
  });
  it('shows the weather when there is some', () => {
    const html = render({ ...none, state: 'ok', source: 'provider', temp: 293.16, celsius: 20.01, humidity: 55 });
    expect(html).toContain('20.01 °C');
    expect(html).toContain('55 %');
    expect(html).not.toContain('not configured');
  });
  it('says why a sync the user asked for failed', () => {
    expect(render(none, 'The weather service cannot be reached')).toContain('The weather service cannot be reached');
  });
});
