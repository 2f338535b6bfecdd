// The SMS/e-mail code input with its send button, as one form row.
import { Form, Input, Space, type FormInstance } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules.ts';
import { SmsCodeButton } from './sms-code-button.tsx';
import type { SmsPurpose } from './api.ts';

export function CodeField({ form, purpose }: { form: FormInstance; purpose: SmsPurpose }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  return (
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
  );
}
