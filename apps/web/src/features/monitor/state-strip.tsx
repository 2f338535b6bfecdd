// The first line of the dashboard: controller mode, the set's state (the partition's word, in its colour, with
// the controller's own engine state beside it) and where the load is fed from.
import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { NO_READING } from './format.ts';
import { SET_STATES, stateWordKey, statusKey } from '../../components/set-status.ts';
import type { LiveItems } from './live-items.ts';
import { PowerPath } from './power-path.tsx';

const STATUS_CLASS: Record<number, string> = { 0: 'offline', 1: 'stopped', 2: 'standby', 3: 'running' };

function StateTile({
  title,
  value,
  tone,
  testId,
  state,
  note,
}: {
  title: string;
  value: string;
  tone: string;
  testId: string;
  /** The set's state in the partition, when the tile shows it. */
  state?: string;
  /** The controller's own word for where it is (e.g. "On load"), beside the state. */
  note?: string | undefined;
}) {
  return (
    <div className={`state-tile state-tile-${tone}`} data-testid={testId}>
      <div className="state-tile-title">{title}</div>
      <div className="state-tile-value">
        <span data-state={state}>{value}</span>
        {note && note !== value ? <span className="state-tile-note"> · {note}</span> : null}
      </div>
    </div>
  );
}

export function StateStrip({ items }: { items: LiveItems }) {
  const { t } = useTranslation();
  const mode = items.byKey.get('mode');
  const engine = items.byKey.get('engine_state');
  // as the top bar: a lost realtime connection reads offline
  const code = items.connection === 'offline' ? 0 : items.status;
  const statusTone = STATUS_CLASS[code ?? 0] ?? 'offline';
  // the controller's phase beside the state, unless it is itself a state's word (a panel's "Standby" while the
  // set is stopped would contradict the state)
  const stateWords = new Set(SET_STATES.map((s) => t(`gensets.status.${s}`)));
  const text = (item: typeof mode) =>
    item ? (item.label ?? (item.value === null ? NO_READING : String(item.value))) : NO_READING;
  return (
    <Card size="small" styles={{ body: { padding: 12 } }}>
      <Row gutter={[12, 12]} align="middle">
        <Col xs={12} md={6} xl={4}>
          <StateTile title={mode?.name ?? t('live.mode')} value={text(mode)} tone="mode" testId="state-mode" />
        </Col>
        <Col xs={12} md={6} xl={5}>
          <StateTile
            title={engine?.name ?? t('live.engineState')}
            value={t(stateWordKey(code))}
            state={statusKey(code)}
            note={engine?.label && !stateWords.has(engine.label) ? engine.label : undefined}
            tone={statusTone}
            testId="state-engine"
          />
        </Col>
        <Col xs={24} md={12} xl={15}>
          <PowerPath items={items} />
        </Col>
      </Row>
    </Card>
  );
}
