// What the station's module was told and what it runs: the tactic version sent and its outcome, the version
// the module reports, the strategy and price template, the setpoint of its last cycle, a demand-response
// event it delivers, and why it holds the battery at 0 kW when it does.
import type { ReactNode } from 'react';
import { Alert, Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';
import { formatDateTime, NONE } from '../../components/format.ts';
import { formatKw } from './site-format.ts';
import type { Station } from './use-station.ts';

const OUTCOME_TONE: Record<string, Tone> = { pending: 'blue', accepted: 'green', refused: 'red' };

export function TacticCard({ station, extra }: { station: Station; extra?: ReactNode }) {
  const { t } = useTranslation();
  const tactic = station.info!.tactic;
  const running = station.runningVersion;
  const inForce = tactic.sentVersion > 0 && running === tactic.sentVersion;
  const runningWord =
    running === null || running === undefined
      ? t('ems.tactic.notReported')
      : running === 0
        ? t('ems.tactic.none')
        : t('ems.tactic.version', { version: running });
  return (
    <Card size="small" title={t('ems.tactic.title')} extra={extra} data-testid="tactic-card">
      {station.safe ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('ems.tactic.safeTitle')}
          description={t(`ems.safe.${station.safe}`)}
          data-testid="tactic-safe"
        />
      ) : null}
      <Descriptions
        size="small"
        column={1}
        colon={false}
        items={[
          {
            key: 'strategy',
            label: t('ems.tactic.strategy'),
            children: tactic.strategy ? t(`ems.strategies.${tactic.strategy}`) : NONE,
          },
          {
            key: 'template',
            label: t('ems.tactic.template'),
            children: tactic.templateName
              ? `${tactic.templateName} · ${t('ems.tactic.version', { version: tactic.templateVersion ?? 0 })}`
              : NONE,
          },
          {
            key: 'sent',
            label: t('ems.tactic.sent'),
            children: (
              <div>
                <span data-testid="tactic-sent" data-version={tactic.sentVersion}>
                  {tactic.sentVersion > 0
                    ? t('ems.tactic.version', { version: tactic.sentVersion })
                    : t('ems.tactic.none')}
                </span>
                {tactic.sentOutcome ? (
                  <>
                    {' '}
                    <ToneTag tone={OUTCOME_TONE[tactic.sentOutcome] ?? 'grey'}>
                      {t(`ems.tactic.outcomes.${tactic.sentOutcome}`)}
                    </ToneTag>
                  </>
                ) : null}
                {tactic.sentAt ? <div className="ems-muted">{formatDateTime(tactic.sentAt, true)}</div> : null}
              </div>
            ),
          },
          {
            key: 'running',
            label: t('ems.tactic.running'),
            children: (
              <div>
                <span data-testid="tactic-running" data-version={running ?? ''}>
                  {runningWord}
                </span>{' '}
                {tactic.sentVersion > 0 && running !== null && running !== undefined ? (
                  <ToneTag tone={inForce ? 'green' : 'orange'}>
                    {inForce ? t('ems.tactic.inForce') : t('ems.tactic.notInForce')}
                  </ToneTag>
                ) : null}
              </div>
            ),
          },
          { key: 'setpoint', label: t('ems.tactic.setpoint'), children: formatKw(tactic.setpointKw) },
          ...(tactic.demandResponse
            ? [{ key: 'demand', label: t('ems.tactic.demandResponse'), children: tactic.demandResponse }]
            : []),
        ]}
      />
    </Card>
  );
}
