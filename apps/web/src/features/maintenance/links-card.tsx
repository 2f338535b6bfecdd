// A set's maintenance links on its maintain tab, for those who may edit its plan.
import { useState } from 'react';
import { App as AntApp, Button, Card, List, Popconfirm, Select, Space, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MaintLink } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { useCreateLink, useRevokeLink } from './api.ts';
import './maintenance.css';

const LINK_DAYS = [1, 3, 7, 14, 30, 90];

/** Maintenance links of the set: make one (shown once, to copy), revoke those still valid. */
export function LinksCard({ token, links }: { token: string; links: MaintLink[] }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<string | null>(null);
  const create = useCreateLink();
  const revoke = useRevokeLink();
  const make = async () => {
    const result = await create.mutateAsync({ token, days });
    setMade(`${window.location.origin}/top/maintain?mtoken=${encodeURIComponent(result.mtoken)}`);
    void message.success(t('maintenance.links.created'));
  };
  return (
    <Card size="small" title={t('maintenance.links.title')} data-testid="maint-links">
      <Typography.Paragraph type="secondary">{t('maintenance.links.explain')}</Typography.Paragraph>
      <Space size={8} wrap>
        <Select
          value={days}
          onChange={setDays}
          aria-label={t('maintenance.links.days')}
          options={LINK_DAYS.map((d) => ({ value: d, label: t('maintenance.links.validFor', { count: d }) }))}
          style={{ minWidth: 140 }}
        />
        <Button icon={<LinkOutlined />} loading={create.isPending} onClick={() => void make()}>
          {t('maintenance.links.create')}
        </Button>
      </Space>
      {made ? (
        <Typography.Paragraph copyable={{ text: made }} className="maint-link" data-testid="maint-link-url">
          {made}
        </Typography.Paragraph>
      ) : null}
      {links.length ? (
        <List<MaintLink>
          size="small"
          dataSource={links}
          renderItem={(link) => (
            <List.Item
              key={link.id}
              actions={[
                <Popconfirm
                  key="revoke"
                  title={t('maintenance.links.revokeConfirm')}
                  okText={t('maintenance.links.revoke')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.actions.cancel')}
                  onConfirm={() => revoke.mutateAsync({ token, id: link.id })}
                >
                  <Button size="small" danger className="danger-readable">
                    {t('maintenance.links.revoke')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              {t('maintenance.links.until', { time: formatDateTime(link.expiresAt) })}
            </List.Item>
          )}
        />
      ) : null}
    </Card>
  );
}
