// The new-password and repeat fields of spec 5 (8–20 characters combining letters, digits and special
// characters; repeat required and equal), shared by registration, password reset and password change.
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from './form-rules.ts';

export function NewPasswordFields({ newLabel, repeatLabel }: { newLabel: string; repeatLabel: string }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  return (
    <>
      <Form.Item name="newPassword" label={newLabel} rules={rules.newPassword} extra={t('validation.passwordRule')}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="newPasswords" label={repeatLabel} rules={rules.repeatPassword} dependencies={['newPassword']}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
