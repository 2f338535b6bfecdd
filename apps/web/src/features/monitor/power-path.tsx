// Where the load is fed from, as a technician draws it: mains, load and generator, with each breaker
// shown closed or open in line and in words. Stacks vertically on narrow screens.
import { useTranslation } from 'react-i18next';
import { formatWithUnit, NO_READING } from './format.ts';
import type { LiveItems } from './live-items.ts';

function flag(items: LiveItems, key: string): boolean | null {
  const value = items.byKey.get(key)?.value;
  return value === undefined || value === null ? null : value !== 0;
}

function reading(items: LiveItems, keys: string[]): string {
  const present = keys.map((key) => items.byKey.get(key)).filter((item) => item !== undefined);
  if (!present.some((item) => item.value !== null)) return NO_READING;
  return present.map((item) => formatWithUnit(item.value, item.decimals, item.unit)).join(' · ');
}

function Link({ closed, testId }: { closed: boolean | null; testId: string }) {
  const { t } = useTranslation();
  const state = closed === null ? 'unknown' : closed ? 'closed' : 'open';
  return (
    <div className={`power-link power-link-${state}`} data-testid={testId} data-state={state}>
      <span className="power-link-line" aria-hidden />
      <span className="power-link-word">{t(`live.power.${state}`)}</span>
    </div>
  );
}

export function PowerPath({ items }: { items: LiveItems }) {
  const { t } = useTranslation();
  const mainsNormal = flag(items, 'mains_normal');
  const genNormal = flag(items, 'gen_normal');
  const kw = items.byKey.get('gen_kw');
  return (
    <div className="power-path" data-testid="power-path">
      <div className={`power-node${mainsNormal === false ? ' power-node-fault' : ''}`}>
        <div className="power-node-name">{t('live.power.mains')}</div>
        <div className="power-node-value">{reading(items, ['mains_voltage_l1', 'mains_freq'])}</div>
        {mainsNormal !== null ? (
          <div className="power-node-state">{t(mainsNormal ? 'live.power.normal' : 'live.power.failed')}</div>
        ) : null}
      </div>
      <Link closed={flag(items, 'mains_on_load')} testId="mains-on-load" />
      <div className="power-node power-node-load">
        <div className="power-node-name">{t('live.power.load')}</div>
        <div className="power-node-value">{kw ? formatWithUnit(kw.value, kw.decimals, kw.unit) : NO_READING}</div>
      </div>
      <Link closed={flag(items, 'gen_on_load')} testId="gen-on-load" />
      <div className="power-node">
        <div className="power-node-name">{t('live.power.generator')}</div>
        <div className="power-node-value">{reading(items, ['gen_voltage_l1', 'gen_freq'])}</div>
        {genNormal !== null ? (
          <div className="power-node-state">{t(genNormal ? 'live.power.normal' : 'live.power.notReady')}</div>
        ) : null}
      </div>
    </div>
  );
}
