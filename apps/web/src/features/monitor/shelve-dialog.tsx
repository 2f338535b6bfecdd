// Shelving an alarm: for how long (a quarter of an hour to three days) and why, both required. While shelved it
// notifies no one; it comes back when the time is up. A refusal (shelved or ended meanwhile) is shown as the server
// words it.
import { App as AntApp, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_SHELVE_REASON_MAX, SHELVE_MINUTES, type AlarmEntry } from '@genset/protocol';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useShelveAlarm } from './api.ts';

interface ShelveForm {
  minutes: number;
  reason: string;
}

export function ShelveDialog({
  alarm,
  token,
  onClose,
}: {
  /** The alarm to shelve; null: closed. */
  alarm: AlarmEntry | null;
  /** The set's token, to read its alarms again. */
  token?: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<ShelveForm>();
  const shelve = useShelveAlarm(token);
  return (
    <FormDialog<ShelveForm>
      form={form}
      open={alarm !== null}
      title={t('live.alarms.shelveTitle')}
      okText={t('live.alarms.shelveOk')}
      saving={shelve.isPending}
      onClose={onClose}
      onSave={async ({ minutes, reason }) => {
        await shelve.mutateAsync({ id: alarm!.id, minutes, reason: reason.trim() });
        void message.success(t('live.alarms.shelveDone'));
        onClose();
      }}
      initialValues={{ minutes: 60, reason: '' }}
      testId="shelve-dialog"
    >
      {alarm ? (
        <Typography.Paragraph>
          <Typography.Text strong>{alarm.title}</Typography.Text>
        </Typography.Paragraph>
      ) : null}
      <Typography.Paragraph type="secondary">{t('live.alarms.shelveIntro')}</Typography.Paragraph>
      <Form.Item name="minutes" label={t('live.alarms.shelveFor')}>
        <Select
          options={SHELVE_MINUTES.map((m) => ({ value: m, label: t(`live.alarms.shelveSpans.${m}`) }))}
          data-testid="shelve-span"
        />
      </Form.Item>
      <Form.Item
        name="reason"
        label={t('live.alarms.shelveReason')}
        rules={[{ required: true, whitespace: true, message: t('live.alarms.shelveRequired') }]}
      >
        <Input.TextArea
          rows={3}
          maxLength={ALARM_SHELVE_REASON_MAX}
          showCount
          placeholder={t('live.alarms.shelvePlaceholder')}
        />
      </Form.Item>
    </FormDialog>
  );
}
