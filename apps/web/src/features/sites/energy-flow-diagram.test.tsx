import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18next, initI18n } from '../../i18n/index.ts';
import { EnergyFlowDiagram } from './energy-flow-diagram.tsx';

beforeAll(async () => {
  await initI18n('en-US', true);
});

const overview = {
  gridKw: -12.5,
  pvKw: null,
  batteryKw: 80,
  loadKw: 67.5,
  soc: 55,
  ts: 1,
  todayChargeKwh: 0,
  todayDischargeKwh: 0,
  todayIncome: 0,
};

describe('the energy-flow diagram', () => {
  it('says each node’s power and what it does, and moves dashes only on lines that carry power', () => {
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18next}>
        <EnergyFlowDiagram overview={overview} />
      </I18nextProvider>,
    );
    expect(html).toMatch(/data-testid="flow-node-battery" data-direction="in"/);
    expect(html).toMatch(/data-testid="flow-node-grid" data-direction="out"/);
    expect(html).toMatch(/data-testid="flow-node-pv" data-direction="unknown"/);
    expect(html).toContain('80 kW');
    expect(html).toContain('12.5 kW');
    expect(html).toContain('Exporting');
    expect(html).toContain('Discharging · 55%');
    expect(html.match(/ems-flow-dash/g)).toHaveLength(3);
    expect(html).toContain('aria-label="Energy flow: Grid: 12.5 kW (Exporting); PV: — (No reading)');
  });
});
