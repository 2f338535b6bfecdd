// The company's webhooks (company administrators): where notices are posted as signed JSON, which kinds, the
// secret receivers check the signature with, and each webhook's delivery log (state, tries, the answer); below
// them, how SMS, e-mail and push go out and their delivery log (messages-card.tsx).
import { useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Checkbox,
  Drawer,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { NOTICE_KINDS, WEBHOOK_HEADERS, type NoticeKind, type WebhookItem } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useDeleteWebhook, useSaveWebhook, useWebhookDeliveries, useWebhooks } from './api.ts';
import { MessagesCard } from './messages-card.tsx';

interface FormValues {
  name: string;
  url: string;
  events: NoticeKind[];
  enabled: boolean;
}

const STATUS_COLORS: Record<string, string> = { sent: 'green', pending: 'orange', sending: 'blue', failed: 'red' };

export function WebhooksPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const hooks = useWebhooks();
  const save = useSaveWebhook();
  const remove = useDeleteWebhook();
  const [editing, setEditing] = useState<WebhookItem | 'new' | null>(null);
  const [log, setLog] = useState<WebhookItem | null>(null);
  const [form] = Form.useForm<FormValues>();

  function openForm(item: WebhookItem | 'new') {
    setEditing(item);
    form.resetFields();
    form.setFieldsValue(
      item === 'new'
        ? { name: '', url: 'https://', events: ['alarm.raised'], enabled: true }
        : { name: item.name, url: item.url, events: item.events, enabled: item.enabled },
    );
  }

  async function submit(values: FormValues) {
    try {
      await save.mutateAsync({ ...(editing && editing !== 'new' ? { id: editing.id } : {}), ...values });
      void message.success(t('common.saved'));
      setEditing(null);
    } catch (error) {
      applyServerErrors(form, error);
    }
  }

  if (hooks.isError) return <ErrorState error={hooks.error} onRetry={() => void hooks.refetch()} />;

  return (
    <Flex vertical gap={16}>
      <Card
        title={t('notices.webhooks.title')}
        data-testid="webhooks-page"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm('new')} data-testid="webhook-add">
            {t('notices.webhooks.add')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          {t('notices.webhooks.intro', { header: WEBHOOK_HEADERS.signature })}
        </Typography.Paragraph>
        <Table<WebhookItem>
          rowKey="id"
          loading={hooks.isPending}
          dataSource={hooks.data?.list ?? []}
          pagination={false}
          scroll={{ x: 720 }}
          columns={[
            { title: t('notices.webhooks.name'), dataIndex: 'name' },
            { title: t('notices.webhooks.url'), dataIndex: 'url', ellipsis: true },
            {
              title: t('notices.webhooks.events'),
              dataIndex: 'events',
              render: (events: NoticeKind[]) => events.map((e) => <Tag key={e}>{t(`notices.kind.${e}`)}</Tag>),
            },
            {
              title: t('notices.webhooks.enabled'),
              dataIndex: 'enabled',
              render: (on: boolean) => (on ? t('notices.webhooks.on') : t('notices.webhooks.off')),
            },
            {
              title: t('notices.webhooks.last'),
              dataIndex: 'lastDelivery',
              render: (last: WebhookItem['lastDelivery']) =>
                last ? (
                  <Space size={4}>
                    <Tag color={STATUS_COLORS[last.status]}>{t(`notices.delivery.${last.status}`)}</Tag>
                    {formatDateTime(last.at)}
                  </Space>
                ) : (
                  t('common.none')
                ),
            },
            {
              title: t('notices.webhooks.actions'),
              key: 'actions',
              render: (_, item) => (
                <Space size={0} wrap>
                  <Button type="link" size="small" onClick={() => openForm(item)}>
                    {t('notices.webhooks.edit')}
                  </Button>
                  <Button type="link" size="small" onClick={() => setLog(item)}>
                    {t('notices.webhooks.log')}
                  </Button>
                  <Popconfirm title={t('notices.webhooks.confirmDelete')} onConfirm={() => remove.mutate(item.id)}>
                    <Button type="link" size="small" danger>
                      {t('notices.webhooks.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
          expandable={{
            expandedRowRender: (item) => (
              <Typography.Text>
                {t('notices.webhooks.secret')}:{' '}
                <Typography.Text code copyable>
                  {item.secret}
                </Typography.Text>
              </Typography.Text>
            ),
          }}
        />
        <Modal
          open={editing !== null}
          title={editing === 'new' ? t('notices.webhooks.add') : t('notices.webhooks.edit')}
          onCancel={() => setEditing(null)}
          onOk={() => form.submit()}
          okText={t('common.actions.save')}
          cancelText={t('common.actions.cancel')}
          confirmLoading={save.isPending}
          destroyOnHidden
        >
          <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} data-testid="webhook-form">
            <Form.Item
              name="name"
              label={t('notices.webhooks.name')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="url"
              label={t('notices.webhooks.url')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Input maxLength={500} inputMode="url" />
            </Form.Item>
            <Form.Item
              name="events"
              label={t('notices.webhooks.events')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Checkbox.Group options={NOTICE_KINDS.map((k) => ({ value: k, label: t(`notices.kind.${k}`) }))} />
            </Form.Item>
            <Form.Item name="enabled" label={t('notices.webhooks.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Form>
        </Modal>
        <Drawer
          open={log !== null}
          onClose={() => setLog(null)}
          title={t('notices.webhooks.logTitle', { name: log?.name ?? '' })}
          size="large"
        >
          {log && <DeliveryLog id={log.id} />}
        </Drawer>
      </Card>
      <MessagesCard />
    </Flex>
  );
}

function DeliveryLog({ id }: { id: number }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(id);
  return (
    <Table
      rowKey="id"
      size="small"
      loading={deliveries.isPending}
      dataSource={deliveries.data?.list ?? []}
      pagination={false}
      scroll={{ x: 560 }}
      columns={[
        { title: t('notices.delivery.time'), dataIndex: 'createdAt', render: (v: number) => formatDateTime(v) },
        { title: t('notices.webhooks.events'), dataIndex: 'kind', render: (k: string) => t(`notices.kind.${k}`) },
        {
          title: t('notices.delivery.status'),
          dataIndex: 'status',
          render: (s: string) => <Tag color={STATUS_COLORS[s]}>{t(`notices.delivery.${s}`)}</Tag>,
        },
        { title: t('notices.delivery.attempts'), dataIndex: 'attempts' },
        {
          title: t('notices.delivery.answer'),
          key: 'answer',
          render: (_, d) => d.responseStatus ?? d.lastError ?? t('common.none'),
        },
        {
          title: t('notices.delivery.next'),
          dataIndex: 'nextAttemptAt',
          render: (v: number | null) => (v ? formatDateTime(v) : t('common.none')),
        },
      ]}
    />
  );
}
