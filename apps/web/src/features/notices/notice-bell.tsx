// The bell in the top bar: the unread count, kept live over the realtime channel, and the latest notices in a
// pop-up with "mark all read" and the way to the message centre. Mounting it keeps the realtime channel open
// on every page, so a new notice rings wherever the person is.
import { useEffect, useState } from 'react';
import { Badge, Button, Flex, Popover, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { watchSets } from '../../realtime/client.ts';
import { useMarkAllNotices, useNoticePushes, useNotices, useUnreadNotices } from './api.ts';
import { NoticeList } from './notice-list.tsx';

export const NOTICES_PATH = '/message';

/** A red dark enough for the white count to read (contrast 5.6:1; Ant Design's default red gives 3.4:1). */
const COUNT_COLOR = '#cf1322';

export function NoticeBell() {
  const { t } = useTranslation();
  useNoticePushes();
  const unread = useUnreadNotices();
  const [open, setOpen] = useState(false);
  // the latest notices are fetched when the pop-up opens, not with every page
  const latest = useNotices(1, 8, false, open);
  const markAll = useMarkAllNotices();
  useEffect(() => watchSets({ reconnect: true }), []);

  const content = (
    <div style={{ width: 'min(360px, 86vw)' }} data-testid="notice-popover">
      <Flex justify="space-between" align="center" style={{ marginBottom: 4 }}>
        <Typography.Text strong>{t('notices.title')}</Typography.Text>
        <Button size="small" type="link" disabled={unread === 0} onClick={() => markAll.mutate()}>
          {t('notices.markAllRead')}
        </Button>
      </Flex>
      <div style={{ maxHeight: 360, overflowY: 'auto' }}>
        <NoticeList items={latest.data?.list ?? []} loading={latest.isPending} compact onOpen={() => setOpen(false)} />
      </div>
      <div style={{ textAlign: 'center', marginTop: 4 }}>
        <Link to={NOTICES_PATH} onClick={() => setOpen(false)}>
          {t('notices.viewAll')}
        </Link>
      </div>
    </div>
  );

  return (
    <Popover content={content} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight">
      <Button
        type="text"
        aria-label={t('notices.bell', { count: unread })}
        data-testid="notice-bell"
        data-unread={unread}
        icon={
          <Badge count={unread} size="small" overflowCount={99} color={COUNT_COLOR}>
            <BellOutlined style={{ fontSize: 18 }} />
          </Badge>
        }
      />
    </Popover>
  );
}
