// Notices as a list: level mark, title, text, time; unread ones stand out and are marked read when opened.
import { Badge, Button, Empty, Flex, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { NoticeItem } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { useMarkNotices } from './api.ts';

const COLORS = { alarm: '#cf1322', warning: '#d48806', info: '#1677ff' } as const;

export function NoticeList({
  items,
  loading,
  compact = false,
  onOpen,
}: {
  items: NoticeItem[];
  loading?: boolean;
  compact?: boolean;
  /** After a notice was opened (the bell closes its pop-up). */
  onOpen?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mark = useMarkNotices();

  function open(item: NoticeItem) {
    if (item.readAt === null) mark.mutate({ ids: [item.id], read: true });
    onOpen?.();
    if (item.link) void navigate(item.link);
  }

  return (
    <List
      loading={loading ?? false}
      dataSource={items}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.empty')} /> }}
      renderItem={(item) => (
        <List.Item
          data-testid="notice-item"
          data-kind={item.kind}
          data-read={item.readAt === null ? 'no' : 'yes'}
          style={{ cursor: item.link ? 'pointer' : 'default', paddingInline: 8 }}
          onClick={() => open(item)}
          actions={
            compact
              ? []
              : [
                  <Button
                    key="read"
                    type="link"
                    size="small"
                    onClick={(e) => {
                      e.stopPropagation();
                      mark.mutate({ ids: [item.id], read: item.readAt === null });
                    }}
                  >
                    {item.readAt === null ? t('notices.markRead') : t('notices.markUnread')}
                  </Button>,
                ]
          }
        >
          <List.Item.Meta
            avatar={<Badge color={COLORS[item.level]} aria-label={t(`notices.level.${item.level}`)} />}
            title={
              <Flex gap={8} wrap="wrap" align="baseline">
                <Typography.Text strong={item.readAt === null}>{item.title}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatDateTime(item.createdAt)}
                </Typography.Text>
              </Flex>
            }
            description={compact ? undefined : item.text}
          />
        </List.Item>
      )}
    />
  );
}
