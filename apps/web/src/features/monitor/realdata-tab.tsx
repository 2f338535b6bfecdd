// The realdata tab of a set (/top/realdata): the user's chosen items in their order, then every item of the
// set grouped (engine, generator, mains, battery, counters, …), all kept live.
import { useState } from 'react';
import { Button, Card, Col, Descriptions, Flex, Row, Skeleton, Space, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useItemSelection } from './api.ts';
import { ConnectionTag } from './connection-tag.tsx';
import { ItemSelectionDialog } from './item-selection-dialog.tsx';
import { groupRank, itemText } from './item-value.ts';
import { useLiveItems, type LiveItem } from './live-items.ts';
import './monitor.css';

function SelectedItems({ items }: { items: LiveItem[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return <EmptyState />;
  return (
    <Row gutter={[8, 8]}>
      {items.map((item) => (
        <Col key={item.key} xs={12} sm={8} lg={6} xl={4}>
          <div className="state-tile" data-testid="selected-item" data-key={item.key}>
            <div className="state-tile-title" title={item.name}>
              {item.name}
            </div>
            <div className="state-tile-value" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {itemText(item, t)}
            </div>
          </div>
        </Col>
      ))}
    </Row>
  );
}

export function RealdataTab({ token }: { token: string }) {
  const { t } = useTranslation();
  const live = useLiveItems(token);
  const selection = useItemSelection(token);
  const [choosing, setChoosing] = useState(false);

  if (live.isPending || selection.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (live.error) return <ErrorState error={live.error} onRetry={live.refetch} />;
  if (selection.isError) return <ErrorState error={selection.error} onRetry={() => void selection.refetch()} />;

  const chosen = selection.data.items.map((meta) => live.byKey.get(meta.key)).filter((item) => item !== undefined);
  const groups = [...new Set(live.items.map((item) => item.group))].sort((a, b) => groupRank(a) - groupRank(b));

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="realdata">
      <ConnectionTag connection={live.connection} ts={live.ts} setOffline={live.status === 0} />
      <Card
        size="small"
        title={
          <Flex gap={8} align="baseline" wrap>
            <span>{t('live.realdata.selected')}</span>
            <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12 }}>
              {selection.data.custom ? t('live.realdata.custom') : t('live.realdata.default')}
            </Typography.Text>
          </Flex>
        }
        extra={
          <Button icon={<SettingOutlined />} onClick={() => setChoosing(true)} data-testid="choose-items">
            {t('live.realdata.choose')}
          </Button>
        }
      >
        <SelectedItems items={chosen} />
      </Card>
      <Typography.Title level={2} style={{ fontSize: 16, margin: '4px 0 0' }}>
        {t('live.realdata.all')}
      </Typography.Title>
      <div className="realdata-groups">
        {groups.map((group) => (
          <Card
            key={group}
            size="small"
            title={t(`live.groups.${group}`, { defaultValue: group })}
            data-testid={`group-${group}`}
          >
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 2, xxl: 2 }}
              items={live.items
                .filter((item) => item.group === group)
                .map((item) => ({
                  key: item.key,
                  label: item.name,
                  children: (
                    <span style={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }} data-key={item.key}>
                      {itemText(item, t)}
                    </span>
                  ),
                }))}
            />
          </Card>
        ))}
      </div>
      {choosing ? (
        <ItemSelectionDialog
          token={token}
          selection={selection.data}
          open={choosing}
          onClose={() => setChoosing(false)}
        />
      ) : null}
    </Space>
  );
}
