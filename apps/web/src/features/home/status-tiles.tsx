// The fleet at a glance: sets by state (each opens My gensets filtered by it), the sets with active alarms
// apart, active alarms by level, the output of the whole fleet now and the maintenance tasks due and overdue.
import type { ReactNode } from 'react';
import { Card, Col, Row, Space } from 'antd';
import { ThunderboltOutlined, WarningFilled, WarningOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { HomeSummaryResponse } from '@genset/protocol';
import { ALARM_LEVEL_HEX } from '../../components/alarm-level-tag.tsx';
import { STATE_ORDER, STATUS_HEX } from '../../components/set-status.ts';
import { formatNumber, localUnit } from '../../components/format.ts';
import { MaintenanceTile } from '../maintenance/home-tile.tsx';

/** The unit as stored; shown in the reader's script (Cyrillic in Russian). */
const KW = 'kW';

/**
 * The sets by state — the partition: each set in exactly one, so the four add up to the total — and, apart and
 * drawn differently, the overlay of the sets with active alarms (each also counted in its state).
 */
/** A tile half the row wide on larger screens: a label, a figure and what goes under it. */
function WideTile({
  testId,
  label,
  value,
  children,
}: {
  testId: string;
  label: ReactNode;
  value: ReactNode;
  children: ReactNode;
}) {
  return (
    <Col xs={24} md={12}>
      <Card size="small" className="home-card-tight">
        <div className="home-wide-tile" data-testid={testId}>
          <span className="home-tile-label">{label}</span>
          <span className="home-tile-value">{value}</span>
          {children}
        </div>
      </Card>
    </Col>
  );
}

export function StatusTiles({ summary, totalKw }: { summary: HomeSummaryResponse; totalKw: number }) {
  const { t } = useTranslation();
  const { counts, alarms } = summary;
  return (
    <Row gutter={[12, 12]} className="home-tiles" data-testid="status-counts">
      <Col xs={12} sm={8} lg={4}>
        <Link to="/genset/mylist" className="home-tile home-tile-total" data-testid="count-total">
          <span className="home-tile-label">{t('home.counts.total')}</span>
          <span className="home-tile-value">{counts.total}</span>
        </Link>
      </Col>
      {STATE_ORDER.map((key) => (
        <Col key={key} xs={12} sm={8} lg={4}>
          <Link
            to={`/genset/mylist?status=${key}`}
            className="home-tile"
            style={{ borderTopColor: STATUS_HEX[key] }}
            data-testid={`count-${key}`}
            data-part="state"
          >
            <span className="home-tile-label">
              <span className="home-dot" style={{ background: STATUS_HEX[key] }} />
              {t(`gensets.status.${key}`)}
            </span>
            <span className="home-tile-value">{counts[key]}</span>
          </Link>
        </Col>
      ))}
      <Col xs={12} sm={8} lg={4}>
        <Link
          to="/genset/mylist?status=alarm"
          className="home-tile home-tile-overlay"
          data-testid="count-alarm"
          data-part="overlay"
        >
          <span className="home-tile-label">
            <WarningFilled style={{ color: STATUS_HEX.alarm }} />
            {t('gensets.status.alarm')}
          </span>
          <span className="home-tile-value">{counts.alarm}</span>
          <span className="home-tile-note">{t('home.counts.overlayNote')}</span>
        </Link>
      </Col>
      <WideTile
        testId="active-alarms"
        label={
          <>
            <WarningOutlined /> {t('home.alarms.active')}
          </>
        }
        value={alarms.total}
      >
        <Space size={12} wrap className="home-levels">
          {(['trip', 'shutdown', 'warning'] as const).map((level) => (
            <span key={level} className="home-level" data-testid={`alarms-${level}`}>
              <span className="home-dot" style={{ background: ALARM_LEVEL_HEX[level] }} />
              {t(`gensets.levels.${level}`)} <strong>{alarms[level]}</strong>
            </span>
          ))}
        </Space>
      </WideTile>
      <WideTile
        testId="total-kw"
        label={
          <>
            <ThunderboltOutlined /> {t('home.output.now')}
          </>
        }
        value={
          <>
            {formatNumber(totalKw, 1)} <small>{localUnit(KW)}</small>
          </>
        }
      >
        <span className="home-tile-note">{t('home.output.running', { count: counts.running })}</span>
      </WideTile>
      <Col xs={24}>
        <MaintenanceTile />
      </Col>
    </Row>
  );
}
