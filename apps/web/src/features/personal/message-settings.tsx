// What the user is told, and how. The switches (channels and kinds of notice) are saved as soon as they
// change; which alarms, after how long offline, quiet hours and the addresses are saved with their form.
import { useEffect, useState } from 'react';
import {
  App as AntApp,
  Button,
  Divider,
  Form,
  Input,
  InputNumber,
  List,
  Select,
  Space,
  Switch,
  TimePicker,
} from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  ALARM_NOTICE_LEVELS,
  ALARM_NOTICE_SCOPES,
  OFFLINE_NOTICE_MAX_MINUTES,
  type MessageSettings as Settings,
} from '@genset/protocol';
import { refreshProfile } from '../../api/session.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { storedLanguage } from '../../i18n/languages.ts';
import { useSession } from '../../stores/session.ts';
import { setMessages } from './api.ts';
import { PushDevices } from './push-devices.tsx';

type SwitchKey =
  'alarmPush' | 'alarmEmail' | 'alarmSms' | 'maintenanceReminder' | 'transfers' | 'repairs' | 'alarmCleared';
const CHANNELS: SwitchKey[] = ['alarmPush', 'alarmEmail', 'alarmSms'];
const KINDS: SwitchKey[] = ['maintenanceReminder', 'transfers', 'repairs', 'alarmCleared'];
/** The switches the personal centre always had keep their words; the newer ones are worded with the notices. */
const FIRST_SWITCHES = new Set<SwitchKey>(['alarmSms', 'alarmEmail', 'alarmPush', 'maintenanceReminder']);
const wordsOf = (key: SwitchKey) => (FIRST_SWITCHES.has(key) ? 'personal.messages' : 'notices.settings');

interface DetailValues {
  alarmLevel: Settings['alarmLevel'];
  alarmScope: Settings['alarmScope'];
  offlineMinutes: number;
  quiet: [dayjs.Dayjs, dayjs.Dayjs] | null;
  email: string;
  phone: string;
}

const HHMM = 'HH:mm';

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return '';
  }
}

export function MessageSettings() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const settings = useSession((s) => s.user?.messages);
  const [saving, setSaving] = useState<SwitchKey | 'details' | null>(null);
  const [form] = Form.useForm<DetailValues>();

  useEffect(() => {
    if (!settings) return;
    form.setFieldsValue({
      alarmLevel: settings.alarmLevel,
      alarmScope: settings.alarmScope,
      offlineMinutes: settings.offlineMinutes,
      quiet:
        settings.quietFrom && settings.quietTo
          ? [dayjs(settings.quietFrom, HHMM), dayjs(settings.quietTo, HHMM)]
          : null,
      email: settings.email,
      phone: settings.phone,
    });
  }, [settings, form]);

  async function change(key: SwitchKey, value: boolean) {
    setSaving(key);
    try {
      await setMessages({ [key]: value, language: storedLanguage() });
      await refreshProfile();
      void message.success(t('common.saved'));
    } catch {
      // the request layer has shown why
    } finally {
      setSaving(null);
    }
  }

  async function saveDetails(values: DetailValues) {
    setSaving('details');
    try {
      await setMessages({
        alarmLevel: values.alarmLevel,
        alarmScope: values.alarmScope,
        offlineMinutes: values.offlineMinutes ?? 0,
        quietFrom: values.quiet ? values.quiet[0].format(HHMM) : '',
        quietTo: values.quiet ? values.quiet[1].format(HHMM) : '',
        timeZone: browserZone(),
        email: (values.email ?? '').trim(),
        phone: (values.phone ?? '').trim(),
        language: storedLanguage(),
      });
      await refreshProfile();
      void message.success(t('common.saved'));
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(null);
    }
  }

  const switches = (keys: SwitchKey[]) => (
    <List
      dataSource={keys}
      renderItem={(key) => (
        <List.Item
          actions={[
            <Switch
              key="switch"
              checked={Boolean(settings?.[key])}
              loading={saving === key}
              onChange={(value) => void change(key, value)}
              aria-labelledby={`message-${key}`}
              data-testid={`message-${key}`}
            />,
          ]}
        >
          <List.Item.Meta
            title={<span id={`message-${key}`}>{t(`${wordsOf(key)}.${key}.title`)}</span>}
            description={t(`${wordsOf(key)}.${key}.text`)}
          />
        </List.Item>
      )}
    />
  );

  return (
    <div data-testid="message-settings">
      <Divider titlePlacement="start">{t('notices.settings.channels')}</Divider>
      {switches(CHANNELS)}
      <PushDevices pushOn={Boolean(settings?.alarmPush)} />
      <Divider titlePlacement="start">{t('notices.settings.kinds')}</Divider>
      {switches(KINDS)}
      <Divider titlePlacement="start">{t('notices.settings.details')}</Divider>
      <Form form={form} layout="vertical" onFinish={(v) => void saveDetails(v)} style={{ maxWidth: 520 }}>
        <Form.Item name="alarmLevel" label={t('notices.settings.alarmLevel.label')}>
          <Select
            options={ALARM_NOTICE_LEVELS.map((v) => ({ value: v, label: t(`notices.settings.alarmLevel.${v}`) }))}
          />
        </Form.Item>
        <Form.Item name="alarmScope" label={t('notices.settings.alarmScope.label')}>
          <Select
            options={ALARM_NOTICE_SCOPES.map((v) => ({ value: v, label: t(`notices.settings.alarmScope.${v}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="offlineMinutes"
          label={t('notices.settings.offlineMinutes.label')}
          extra={t('notices.settings.offlineMinutes.text')}
        >
          <InputNumber min={0} max={OFFLINE_NOTICE_MAX_MINUTES} step={5} suffix={t('notices.settings.minutes')} />
        </Form.Item>
        <Form.Item name="quiet" label={t('notices.settings.quiet.label')} extra={t('notices.settings.quiet.text')}>
          <TimePicker.RangePicker format={HHMM} order={false} allowClear />
        </Form.Item>
        <Form.Item name="email" label={t('notices.settings.email.label')} extra={t('notices.settings.email.text')}>
          <Input type="email" autoComplete="email" maxLength={120} />
        </Form.Item>
        <Form.Item name="phone" label={t('notices.settings.phone.label')} extra={t('notices.settings.phone.text')}>
          <Input type="tel" autoComplete="tel" maxLength={16} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving === 'details'} data-testid="message-details-save">
            {t('common.actions.save')}
          </Button>
        </Space>
      </Form>
    </div>
  );
}
