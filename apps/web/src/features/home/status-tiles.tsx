// The fleet at a glance: sets by status (each opens My gensets filtered by it), active alarms by level, the
// output of the whole fleet now and the maintenance tasks due and overdue.
import { Card, Col, Row, Space } from 'antd';
import { ThunderboltOutlined, WarningOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { HomeSummaryResponse } from '@genset/protocol';
import { ALARM_LEVEL_HEX } from '../../components/alarm-level-tag.tsx';
import { STATUS_HEX, type SetStatusKey } from '../../components/set-status.ts';
import { formatNumber, localUnit } from '../../components/format.ts';
import { MaintenanceTile } from '../maintenance/home-tile.tsx';

/** The unit as stored; shown in the reader's script (Cyrillic in Russian). */
const KW = 'kW';

const STATUSES: SetStatusKey[] = ['running', 'standby', 'shutdown', 'offline', 'alarm'];

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
      {STATUSES.map((key) => (
        <Col key={key} xs={12} sm={8} lg={4}>
          <Link
            to={`/genset/mylist?status=${key}`}
            className="home-tile"
            style={{ borderTopColor: STATUS_HEX[key] }}
            data-testid={`count-${key}`}
          >
            <span className="home-tile-label">
              <span className="home-dot" style={{ background: STATUS_HEX[key] }} />
              {t(`gensets.status.${key}`)}
            </span>
            <span className="home-tile-value">{counts[key]}</span>
          </Link>
        </Col>
      ))}
      <Col xs={24} md={12}>
        <Card size="small" className="home-card-tight">
          <div className="home-wide-tile" data-testid="active-alarms">
            <span className="home-tile-label">
              <WarningOutlined /> {t('home.alarms.active')}
            </span>
            <span className="home-tile-value">{alarms.total}</span>
            <Space size={12} wrap className="home-levels">
              {(['trip', 'shutdown', 'warning'] as const).map((level) => (
                <span key={level} className="home-level" data-testid={`alarms-${level}`}>
                  <span className="home-dot" style={{ background: ALARM_LEVEL_HEX[level] }} />
                  {t(`gensets.levels.${level}`)} <strong>{alarms[level]}</strong>
                </span>
              ))}
            </Space>
          </div>
        </Card>
      </Col>
      <Col xs={24} md={12}>
        <Card size="small" className="home-card-tight">
          <div className="home-wide-tile" data-testid="total-kw">
            <span className="home-tile-label">
              <ThunderboltOutlined /> {t('home.output.now')}
            </span>
            <span className="home-tile-value">
              {formatNumber(totalKw, 1)} <small>{localUnit(KW)}</small>
            </span>
            <span className="home-tile-note">{t('home.output.running', { count: counts.running })}</span>
          </div>
        </Card>
      </Col>
      <Col xs={24}>
        <MaintenanceTile />
      </Col>
    </Row>
  );
}
