// What an alarm of the history says of its episode: how often it was raised in it, whether it flapped, who
// acknowledged it, when and why (or, for those who may, the button to acknowledge it), and whether it is shelved,
// until when, by whom and why (or the buttons to shelve it and to take it off the shelf).
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckCircleOutlined, PauseCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AlarmEntry } from '@genset/protocol';
import { formatDateTime } from './format.ts';

/** The alarm's title with its count of occurrences and its flapping mark. */
export function AlarmEpisodeTitle({ alarm }: { alarm: AlarmEntry }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      <span>{alarm.title}</span>
      {alarm.occurrences && alarm.occurrences > 1 ? (
        <Tooltip title={t('live.alarms.occurrencesHint', { count: alarm.occurrences })}>
          <Tag style={{ marginInlineEnd: 0 }} data-testid="alarm-occurrences">
            {t('live.alarms.occurrences', { count: alarm.occurrences })}
          </Tag>
        </Tooltip>
      ) : null}
      {alarm.flapping ? (
        <Tooltip title={t('live.alarms.flappingHint')}>
          <Tag color="orange" style={{ marginInlineEnd: 0 }} data-testid="alarm-flapping">
            {t('live.alarms.flapping')}
          </Tag>
        </Tooltip>
      ) : null}
    </Space>
  );
}

/** Who acknowledged the alarm, when and why; else the button to (when given) or the words that nobody has. */
export function AlarmAck({ alarm, onAck }: { alarm: AlarmEntry; onAck?: (() => void) | undefined }) {
  const { t } = useTranslation();
  if (alarm.ack)
    return (
      <Space size={4} align="start" data-testid="alarm-ack">
        <CheckCircleOutlined style={{ color: '#237804', marginTop: 4 }} aria-label={t('live.alarms.ack')} />
        <Space direction="vertical" size={0}>
          <Typography.Text>
            {t('live.alarms.ackBy', { name: alarm.ack.by, time: formatDateTime(alarm.ack.at) })}
          </Typography.Text>
          <Typography.Text type="secondary">{alarm.ack.comment}</Typography.Text>
        </Space>
      </Space>
    );
  if (onAck)
    return (
      <Button size="small" onClick={onAck} data-testid="alarm-ack-button">
        {t('live.alarms.ackAction')}
      </Button>
    );
  return <Typography.Text type="secondary">{t('live.alarms.notAcked')}</Typography.Text>;
}

/** The alarm's shelf, if it is on one: until when, by whom and why; else (when given) the button to shelve it. */
export function AlarmShelf({
  alarm,
  onShelve,
  onUnshelve,
}: {
  alarm: AlarmEntry;
  onShelve?: (() => void) | undefined;
  onUnshelve?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const { shelf } = alarm;
  if (shelf)
    return (
      <Space size={4} align="start" data-testid="alarm-shelf">
        <PauseCircleOutlined style={{ color: '#531dab', marginTop: 4 }} aria-hidden />
        <Space direction="vertical" size={0}>
          <Typography.Text data-testid="alarm-shelf-until">
            {t('live.alarms.shelvedUntil', { time: formatDateTime(shelf.until) })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('live.alarms.shelvedBy', { name: shelf.by, time: formatDateTime(shelf.at) })}
          </Typography.Text>
          <Typography.Text type="secondary">{shelf.reason}</Typography.Text>
          {onUnshelve ? (
            <Button size="small" onClick={onUnshelve} data-testid="alarm-unshelve-button">
              {t('live.alarms.unshelveAction')}
            </Button>
          ) : null}
        </Space>
      </Space>
    );
  if (onShelve && alarm.end === null)
    return (
      <Button size="small" onClick={onShelve} data-testid="alarm-shelve-button">
        {t('live.alarms.shelveAction')}
      </Button>
    );
  return null;
}
