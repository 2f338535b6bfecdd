// The home page's maintenance line: how many tasks are due (their reminder reached) and overdue over the sets
// the user sees, leading to the maintenance page. Hidden while unknown (the rest of the home page stands).
import { Card } from 'antd';
import { ScheduleOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMaintCounts } from './api.ts';

export function MaintenanceTile() {
  const { t } = useTranslation();
  const counts = useMaintCounts();
  if (!counts.data) return null;
  const { due, overdue } = counts.data;
  return (
    <Card size="small" className="home-card-tight">
      <Link to="/genset/maintenance" className="home-wide-tile" data-testid="maintenance-counts">
        <span className="home-tile-label">
          <ScheduleOutlined /> {t('maintenance.home.title')}
        </span>
        <span className="home-tile-value">
          <span data-testid="maintenance-overdue" style={{ color: overdue ? '#cf1322' : undefined }}>
            {t('maintenance.home.overdue', { count: overdue })}
          </span>
          {' · '}
          <span data-testid="maintenance-due">{t('maintenance.home.due', { count: due })}</span>
        </span>
      </Link>
    </Card>
  );
}
