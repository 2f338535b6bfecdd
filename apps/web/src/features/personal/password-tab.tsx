// The password tab of the personal centre: the same form and rules as the dialog, with its own button.
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from './change-password-form.tsx';
import { useChangePassword } from './use-change-password.ts';

export function PasswordTab() {
  const { t } = useTranslation();
  const { form, submit, pending } = useChangePassword();
  return (
    <div style={{ maxWidth: 480 }}>
      <ChangePasswordForm form={form} name="change-password" />
      <Button type="primary" onClick={() => void submit()} loading={pending}>
        {t('personal.password.submit')}
      </Button>
    </div>
  );
}
