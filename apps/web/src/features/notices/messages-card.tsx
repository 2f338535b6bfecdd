// How the company's messages go out (company administrators): which provider serves SMS and e-mail on this
// installation — or, plainly, that none does and messages go to the server's outbox —, a test message per channel,
// and the delivery log of every SMS, e-mail and push (recipient masked, provider, state, why it failed, tries).
import { useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_PAGE_SIZE,
  MESSAGE_CHANNELS,
  PAGE_SIZES,
  type MessageChannelName,
  type MessageLogItem,
  type MessageStatusResponse,
} from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useMessageLog, useMessageStatus, useSendTestMessage } from './api.ts';

const STATUS_COLORS: Record<string, string> = {
  sending: 'blue',
  sent: 'green',
  delivered: 'green',
  failed: 'red',
  throttled: 'orange',
};

/** A provider's name as people know it. */
function providerName(t: (key: string) => string, provider: string): string {
  const known = ['twilio', 'aliyun', 'smtp', 'webpush', 'outbox'];
  return known.includes(provider) ? t(`notices.messages.provider.${provider}`) : provider;
}

function ChannelStatus({ status }: { status: MessageStatusResponse }) {
  const { t } = useTranslation();
  const sms = status.sms.configured
    ? status.sms.fallback
      ? t('notices.messages.smsWithFallback', {
          provider: providerName(t, status.sms.provider),
          fallback: providerName(t, status.sms.fallback),
        })
      : t('notices.messages.smsBy', { provider: providerName(t, status.sms.provider) })
    : null;
  return (
    <Flex vertical gap={8} style={{ marginBottom: 16 }} data-testid="message-channels">
      {sms ? (
        <Alert type="success" showIcon title={sms} />
      ) : (
        <Alert type="warning" showIcon title={t('notices.messages.noSms')} data-testid="no-sms-provider" />
      )}
      {status.email.configured ? (
        <Alert type="success" showIcon title={t('notices.messages.emailBySmtp')} />
      ) : (
        <Alert type="warning" showIcon title={t('notices.messages.noEmail')} data-testid="no-email-provider" />
      )}
    </Flex>
  );
}

interface TestValues {
  channel: MessageChannelName;
  to: string;
}

function TestMessage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<TestValues>();
  const send = useSendTestMessage();
  const channel = Form.useWatch('channel', form) ?? 'sms';
  const [outcome, setOutcome] = useState<{ item: MessageLogItem | null; devices: number } | null>(null);

  async function submit(values: TestValues) {
    setOutcome(null);
    try {
      setOutcome(await send.mutateAsync({ channel: values.channel, to: values.channel === 'push' ? '' : values.to }));
    } catch (error) {
      applyServerErrors(form, error);
    }
  }

  return (
    <Form
      form={form}
      layout="inline"
      initialValues={{ channel: 'sms', to: '' }}
      onFinish={(v) => void submit(v)}
      data-testid="test-message-form"
      style={{ rowGap: 8, marginBottom: 8 }}
    >
      <Form.Item name="channel" label={t('notices.messages.channel')}>
        <Select
          style={{ width: 140 }}
          options={MESSAGE_CHANNELS.map((c) => ({ value: c, label: t(`notices.messages.channels.${c}`) }))}
          onChange={() => {
            setOutcome(null);
            form.setFields([{ name: 'to', errors: [] }]);
          }}
        />
      </Form.Item>
      {channel !== 'push' && (
        <Form.Item
          name="to"
          label={t('notices.messages.to')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Input
            style={{ width: 240, maxWidth: '100%' }}
            inputMode={channel === 'sms' ? 'tel' : 'email'}
            placeholder={channel === 'sms' ? '+8613800000000' : 'name@example.com'}
            maxLength={254}
          />
        </Form.Item>
      )}
      <Form.Item>
        <Button htmlType="submit" icon={<SendOutlined />} loading={send.isPending} data-testid="test-message-send">
          {t('notices.messages.sendTest')}
        </Button>
      </Form.Item>
      {outcome && (
        <Form.Item style={{ flexBasis: '100%' }}>
          <TestOutcome outcome={outcome} />
        </Form.Item>
      )}
    </Form>
  );
}

function TestOutcome({ outcome }: { outcome: { item: MessageLogItem | null; devices: number } }) {
  const { t } = useTranslation();
  const { item } = outcome;
  if (!item) {
    return outcome.devices > 0 ? (
      <Alert type="success" showIcon title={t('notices.messages.pushSent', { count: outcome.devices })} />
    ) : (
      <Alert type="warning" showIcon title={t('notices.messages.noDevices')} />
    );
  }
  if (item.status === 'sent' || item.status === 'delivered')
    return (
      <Alert
        type="success"
        showIcon
        data-testid="test-message-outcome"
        title={t('notices.messages.testSent', {
          recipient: item.recipient,
          provider: providerName(t, item.provider),
        })}
      />
    );
  return (
    <Alert
      type="error"
      showIcon
      data-testid="test-message-outcome"
      title={item.failure ? t(`notices.messages.failure.${item.failure}`) : t('notices.messages.status.failed')}
      description={item.error ?? undefined}
    />
  );
}

function DeliveryLog() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [channel, setChannel] = useState<MessageChannelName | 'all'>('all');
  const log = useMessageLog(page, size, channel === 'all' ? undefined : channel);
  if (log.isError) return <ErrorState error={log.error} onRetry={() => void log.refetch()} />;
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Text strong>{t('notices.messages.log')}</Typography.Text>
        <Segmented
          value={channel}
          onChange={(v) => {
            setChannel(v as MessageChannelName | 'all');
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('notices.messages.all') },
            ...MESSAGE_CHANNELS.map((c) => ({ value: c, label: t(`notices.messages.channels.${c}`) })),
          ]}
        />
      </Space>
      <Table<MessageLogItem>
        rowKey="id"
        size="small"
        data-testid="message-log"
        loading={log.isPending}
        dataSource={log.data?.list ?? []}
        scroll={{ x: 860 }}
        pagination={{
          current: page,
          pageSize: size,
          total: log.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          onChange: (p, s) => {
            setPage(s === size ? p : 1);
            setSize(s);
          },
        }}
        columns={[
          { title: t('notices.delivery.time'), dataIndex: 'createdAt', render: (v: number) => formatDateTime(v) },
          {
            title: t('notices.messages.channel'),
            dataIndex: 'channel',
            render: (c: MessageChannelName) => t(`notices.messages.channels.${c}`),
          },
          {
            title: t('notices.messages.purpose'),
            dataIndex: 'purpose',
            render: (p: string) => t(`notices.messages.purposes.${p}`, { defaultValue: p }),
          },
          { title: t('notices.messages.recipient'), dataIndex: 'recipient' },
          {
            title: t('notices.messages.providerColumn'),
            dataIndex: 'provider',
            render: (p: string) => providerName(t, p),
          },
          {
            title: t('notices.delivery.status'),
            dataIndex: 'status',
            render: (s: string) => <Tag color={STATUS_COLORS[s]}>{t(`notices.messages.status.${s}`)}</Tag>,
          },
          { title: t('notices.delivery.attempts'), dataIndex: 'attempts' },
          {
            title: t('notices.messages.why'),
            key: 'why',
            render: (_, item) =>
              item.failure ? (
                <Typography.Text title={item.error ?? undefined}>
                  {t(`notices.messages.failure.${item.failure}`)}
                </Typography.Text>
              ) : (
                t('common.none')
              ),
          },
        ]}
      />
    </>
  );
}

export function MessagesCard() {
  const { t } = useTranslation();
  const status = useMessageStatus();
  return (
    <Card title={t('notices.messages.title')} data-testid="messages-card">
      {status.data && <ChannelStatus status={status.data} />}
      <TestMessage />
      <DeliveryLog />
    </Card>
  );
}
