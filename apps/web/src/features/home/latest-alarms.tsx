// The alarms that started last across the fleet, newest first, with level, set, time and whether they stand.
import { List, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { HomeSummaryResponse } from '@genset/protocol';
import { AlarmLevelTag } from '../../components/alarm-level-tag.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ToneTag } from '../../components/tone-tag.tsx';
import { formatDateTime } from '../../components/format.ts';

export function LatestAlarms({ alarms }: { alarms: HomeSummaryResponse['latestAlarms'] }) {
  const { t } = useTranslation();
  if (alarms.length === 0) return <EmptyState description={t('home.latest.empty')} />;
  return (
    <List
      size="small"
      className="home-alarms"
      dataSource={alarms}
      data-testid="latest-alarms"
      renderItem={(a) => (
        <List.Item key={a.id}>
          <div className="home-alarm">
            <div className="home-alarm-top">
              <AlarmLevelTag level={a.level} />
              <span className="home-alarm-title" title={a.title}>
                {a.title}
              </span>
              {a.end === null ? <ToneTag tone="red">{t('home.latest.active')}</ToneTag> : null}
            </div>
            <Typography.Text type="secondary" className="home-alarm-sub">
              <Link to={`/genset/alarms?token=${encodeURIComponent(a.token)}`}>{a.setName}</Link>
              {' · '}
              {formatDateTime(a.start)}
            </Typography.Text>
          </div>
        </List.Item>
      )}
    />
  );
}
