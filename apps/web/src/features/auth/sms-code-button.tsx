// Sends an SMS/e-mail code to the account in the form and counts down until another may be sent (60 s).
import { useEffect, useState } from 'react';
import { App as AntApp, Button, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/request.ts';
import { sendCode, type SmsPurpose } from './api.ts';

const DEFAULT_WAIT_SECONDS = 60;

export interface SmsCodeButtonProps {
  form: FormInstance;
  purpose: SmsPurpose;
  size?: 'middle' | 'large';
}

export function SmsCodeButton({ form, purpose, size = 'large' }: SmsCodeButtonProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [remaining, setRemaining] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);

  async function onClick() {
    let username: string;
    try {
      username = ((await form.validateFields(['username'])) as { username: string }).username;
    } catch {
      return;
    }
    setSending(true);
    try {
      const { retryAfter } = await sendCode(username, purpose);
      setRemaining(retryAfter > 0 ? retryAfter : DEFAULT_WAIT_SECONDS);
      void message.success(t('auth.code.sent'));
    } catch (error) {
      if (error instanceof ApiError && error.retryAfter) setRemaining(error.retryAfter);
    } finally {
      setSending(false);
    }
  }

  return (
    <Button
      onClick={onClick}
      loading={sending}
      disabled={remaining > 0}
      size={size}
      data-testid="send-code"
      style={{ minWidth: 128 }}
    >
      {remaining > 0 ? t('auth.code.resendIn', { seconds: remaining }) : t('auth.code.send')}
    </Button>
  );
}
