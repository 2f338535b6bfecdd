// Acknowledging an alarm: a comment saying what is being done, required; everyone who sees the set reads it with
// the name and the time. A refusal (someone acknowledged it meanwhile) is shown as the server words it.
import { App as AntApp, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_ACK_COMMENT_MAX, type AlarmEntry } from '@genset/protocol';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useAcknowledgeAlarm } from './api.ts';

export function AckDialog({
  alarm,
  token,
  onClose,
}: {
  /** The alarm to acknowledge; null: closed. */
  alarm: AlarmEntry | null;
  /** The set's token, to read its alarms again. */
  token?: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ comment: string }>();
  const ack = useAcknowledgeAlarm(token);
  return (
    <FormDialog<{ comment: string }>
      form={form}
      open={alarm !== null}
      title={t('live.alarms.ackTitle')}
      okText={t('live.alarms.ackOk')}
      saving={ack.isPending}
      onClose={onClose}
      onSave={async ({ comment }) => {
        await ack.mutateAsync({ id: alarm!.id, comment: comment.trim() });
        void message.success(t('live.alarms.ackDone'));
        onClose();
      }}
      initialValues={{ comment: '' }}
      testId="ack-dialog"
    >
      {alarm ? (
        <Typography.Paragraph>
          <Typography.Text strong>{alarm.title}</Typography.Text>
        </Typography.Paragraph>
      ) : null}
      <Typography.Paragraph type="secondary">{t('live.alarms.ackIntro')}</Typography.Paragraph>
      <Form.Item
        name="comment"
        label={t('live.alarms.ackComment')}
        rules={[{ required: true, whitespace: true, message: t('live.alarms.ackRequired') }]}
      >
        <Input.TextArea
          rows={3}
          maxLength={ALARM_ACK_COMMENT_MAX}
          showCount
          placeholder={t('live.alarms.ackPlaceholder')}
        />
      </Form.Item>
    </FormDialog>
  );
}
