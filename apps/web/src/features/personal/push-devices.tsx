// "Notify this device": Web Push of notices to this browser (the console's service worker shows them), and the
// person's devices that are notified, each of which can be removed. States are told as they are: a browser
// without push, notifications blocked in the browser, a push service that could not be reached.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Divider, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PushDevice } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import {
  listDevices,
  notificationPermission,
  pushSupport,
  removeDevice,
  subscribeThisDevice,
  thisSubscription,
  unsubscribeThisDevice,
} from './push.ts';

export function PushDevices({ pushOn }: { pushOn: boolean }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const support = pushSupport();
  const permission = useQuery({ queryKey: ['push', 'permission'], queryFn: notificationPermission }).data ?? 'default';
  const queries = useQueryClient();
  const devices = useQuery({ queryKey: ['push', 'devices'], queryFn: listDevices }).data?.list ?? [];
  const endpoint =
    useQuery({
      queryKey: ['push', 'this'],
      queryFn: async () => (support === 'supported' ? ((await thisSubscription())?.endpoint ?? null) : null),
    }).data ?? null;
  const [busy, setBusy] = useState<'subscribe' | 'unsubscribe' | number | null>(null);
  const [failed, setFailed] = useState<'noWorker' | 'serviceFailed' | null>(null);

  const reload = () => queries.invalidateQueries({ queryKey: ['push'] });

  const thisDevice = endpoint ? devices.find((d) => d.endpoint === endpoint) : undefined;

  async function subscribe() {
    setBusy('subscribe');
    setFailed(null);
    try {
      const outcome = await subscribeThisDevice();
      if (outcome === 'subscribed') void message.success(t('push.subscribed'));
      else if (outcome !== 'denied') setFailed(outcome);
      await reload();
    } catch {
      // the request layer has shown why
    } finally {
      setBusy(null);
    }
  }

  async function unsubscribe() {
    setBusy('unsubscribe');
    try {
      await unsubscribeThisDevice();
      await reload();
    } finally {
      setBusy(null);
    }
  }

  async function remove(device: PushDevice) {
    setBusy(device.id);
    try {
      if (device.endpoint === endpoint) await unsubscribeThisDevice();
      else await removeDevice(device.id);
      await reload();
    } catch {
      // the request layer has shown why
    } finally {
      setBusy(null);
    }
  }

  return (
    <div data-testid="push-devices">
      <Divider titlePlacement="start">{t('push.title')}</Divider>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('push.intro')}
        </Typography.Paragraph>
        {!pushOn && <Alert type="info" showIcon message={t('push.channelOff')} data-testid="push-channel-off" />}
        {support === 'unsupported' && (
          <Alert type="info" showIcon message={t('push.unsupported')} data-testid="push-unsupported" />
        )}
        {support === 'insecure' && (
          <Alert type="info" showIcon message={t('push.insecure')} data-testid="push-insecure" />
        )}
        {support === 'supported' && permission === 'denied' && (
          <Alert type="warning" showIcon message={t('push.denied')} data-testid="push-denied" />
        )}
        {failed && <Alert type="error" showIcon message={t(`push.${failed}`)} data-testid="push-failed" />}
        {support === 'supported' && permission !== 'denied' && (
          <Space wrap>
            {thisDevice ? (
              <>
                <Tag color="success" data-testid="push-this-on">
                  {t('push.thisOn')}
                </Tag>
                <Button onClick={() => void unsubscribe()} loading={busy === 'unsubscribe'}>
                  {t('push.unsubscribe')}
                </Button>
              </>
            ) : (
              <Button
                type="primary"
                onClick={() => void subscribe()}
                loading={busy === 'subscribe'}
                data-testid="push-subscribe"
              >
                {t('push.subscribe')}
              </Button>
            )}
          </Space>
        )}
        <List
          header={<Typography.Text strong>{t('push.devices')}</Typography.Text>}
          dataSource={devices}
          locale={{ emptyText: t('push.none') }}
          data-testid="push-device-list"
          renderItem={(device) => (
            <List.Item
              actions={[
                <Button
                  key="remove"
                  danger
                  size="small"
                  loading={busy === device.id}
                  onClick={() => void remove(device)}
                  aria-label={t('push.removeLabel', { device: device.label || device.service })}
                >
                  {t('push.remove')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space>
                    <span>{device.label || device.service}</span>
                    {device.endpoint === endpoint && <Tag>{t('push.thisDevice')}</Tag>}
                  </Space>
                }
                description={
                  <Space wrap split="·">
                    <span>{t('push.added', { time: formatDateTime(device.createdAt) })}</span>
                    <span>
                      {device.lastSuccessAt
                        ? t('push.lastSent', { time: formatDateTime(device.lastSuccessAt) })
                        : t('push.neverSent')}
                    </span>
                    {device.failures > 0 && (
                      <Typography.Text type="warning">{t('push.failures', { count: device.failures })}</Typography.Text>
                    )}
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      </Space>
    </div>
  );
}
