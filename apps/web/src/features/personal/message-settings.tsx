// Which notices the user receives; each switch is saved as soon as it changes.
import { useState } from 'react';
import { App as AntApp, List, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MessageSettings as Settings } from '@genset/protocol';
import { refreshProfile } from '../../api/session.ts';
import { useSession } from '../../stores/session.ts';
import { setMessages } from './api.ts';

const KEYS: (keyof Settings)[] = ['alarmSms', 'alarmEmail', 'alarmPush', 'maintenanceReminder'];

export function MessageSettings() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const settings = useSession((s) => s.user?.messages);
  const [saving, setSaving] = useState<keyof Settings | null>(null);

  async function change(key: keyof Settings, value: boolean) {
    setSaving(key);
    try {
      await setMessages({ [key]: value });
      await refreshProfile();
      void message.success(t('common.saved'));
    } catch {
      // the request layer has shown why
    } finally {
      setSaving(null);
    }
  }

  return (
    <List
      dataSource={KEYS}
      renderItem={(key) => (
        <List.Item
          actions={[
            <Switch
              key="switch"
              checked={Boolean(settings?.[key])}
              loading={saving === key}
              onChange={(value) => void change(key, value)}
              aria-labelledby={`message-${key}`}
            />,
          ]}
        >
          <List.Item.Meta
            title={<span id={`message-${key}`}>{t(`personal.messages.${key}.title`)}</span>}
            description={t(`personal.messages.${key}.text`)}
          />
        </List.Item>
      )}
    />
  );
}
