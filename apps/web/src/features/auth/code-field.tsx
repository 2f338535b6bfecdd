// The SMS/e-mail code input with its send button, as one form row; above it, when this server sends no SMS (or
// no e-mail) at all, a plain word that no code will arrive that way, instead of a wait for one that never comes.
import { Alert, Form, Input, Space, type FormInstance } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isEmail, type MessageChannelsResponse } from '@genset/protocol';
import { get } from '../../api/request.ts';
import { useFormRules } from '../../components/form-rules.ts';
import { SmsCodeButton } from './sms-code-button.tsx';
import type { SmsPurpose } from './api.ts';

/** Whether codes leave this server by SMS and by e-mail (asked once per visit). */
function useMessageChannels() {
  return useQuery({
    queryKey: ['messages', 'channels'],
    queryFn: ({ signal }) => get<MessageChannelsResponse>('/messages/channels', undefined, { signal }),
    staleTime: Infinity,
  });
}

export function CodeField({ form, purpose }: { form: FormInstance; purpose: SmsPurpose }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const channels = useMessageChannels().data;
  const username = String(Form.useWatch('username', form) ?? '').trim();
  const byEmail = isEmail(username);
  const unsent = channels && (byEmail ? !channels.email : !channels.sms);
  return (
    <>
      {unsent && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="codes-not-sent"
          title={byEmail ? t('auth.code.noEmail') : t('auth.code.noSms')}
        />
      )}
      <Form.Item label={t('auth.fields.code')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" rules={rules.smsCode} noStyle>
            <Input
              prefix={<MessageOutlined />}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              size="large"
              aria-label={t('auth.fields.code')}
            />
          </Form.Item>
          <SmsCodeButton form={form} purpose={purpose} />
        </Space.Compact>
      </Form.Item>
    </>
  );
}
