// Every saved version of the set's report of one type, newest first; opening one shows it in the form.
import { Button, Drawer, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReportVersionSummary } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { formatDateTime } from '../../components/format.ts';

export function VersionsDrawer({
  open,
  onClose,
  versions,
  shown,
  onOpen,
}: {
  open: boolean;
  onClose: () => void;
  versions: ReportVersionSummary[];
  shown: number | null;
  onOpen: (version: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('reports.versions.title')}
      size="default"
      data-testid="report-versions"
    >
      {versions.length === 0 ? (
        <EmptyState description={t('reports.versions.empty')} />
      ) : (
        <List
          dataSource={versions}
          renderItem={(v) => (
            <List.Item
              data-testid={`report-version-${v.version}`}
              actions={[
                <Button key="open" size="small" disabled={v.version === shown} onClick={() => onOpen(v.version)}>
                  {t('reports.actions.open')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <>
                    {t('reports.versions.item', { version: v.version })}{' '}
                    {v.version === shown ? <Tag color="blue">✓</Tag> : null}
                  </>
                }
                description={
                  <>
                    <div>{t('reports.versions.period', { from: v.from, to: v.to })}</div>
                    <Typography.Text type="secondary">
                      {t('reports.versions.by', { time: formatDateTime(v.createdAt), author: v.author })}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
