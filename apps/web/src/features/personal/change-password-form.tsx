// The three password fields of spec 5: old required; new 8–20 combining letters, digits and special
// characters; repeat required and equal.
import { Form, Input, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChangePasswordRequest } from '@genset/protocol';
import { useFormRules } from '../../components/form-rules.ts';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';

export type ChangePasswordValues = ChangePasswordRequest;

export function ChangePasswordForm({ form, name }: { form: FormInstance<ChangePasswordValues>; name: string }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  return (
    <Form<ChangePasswordValues> form={form} layout="vertical" name={name} requiredMark={false}>
      <Form.Item name="password" label={t('personal.password.old')} rules={rules.oldPassword}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <NewPasswordFields newLabel={t('personal.password.new')} repeatLabel={t('personal.password.repeat')} />
    </Form>
  );
}
