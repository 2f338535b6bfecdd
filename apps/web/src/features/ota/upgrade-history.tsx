// A set's firmware upgrades, newest first, on its page: which file and version, where each stands, why one
// failed; live while the page is open.
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Permission } from '@genset/protocol';
import { useAuthorized } from '../../components/use-authorized.ts';
import { useSetUpgrades, useUpgradePushes } from './api.ts';
import { UpgradeJobs } from './upgrade-jobs.tsx';

export function UpgradeHistory({ token }: { token: string }) {
  const { t } = useTranslation();
  const authorized = useAuthorized();
  const jobs = useSetUpgrades(token);
  useUpgradePushes();
  if (jobs.isError) return null;
  return (
    <Card
      size="small"
      title={<h2 style={{ fontSize: 15, margin: 0 }}>{t('ota.history.title')}</h2>}
      style={{ marginTop: 16 }}
    >
      <UpgradeJobs
        jobs={jobs.data?.list ?? []}
        loading={jobs.isPending}
        show="file"
        canCancel={authorized([Permission.otaManage])}
        testId="set-upgrades"
      />
    </Card>
  );
}
