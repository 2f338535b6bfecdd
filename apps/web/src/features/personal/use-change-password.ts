// Submits the password form only when valid; on success clears it and reports.
import { App as AntApp, Form } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applyServerErrors } from '../../components/server-errors.ts';
import { changePassword } from './api.ts';
import type { ChangePasswordValues } from './change-password-form.tsx';

export function useChangePassword(onDone?: () => void) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<ChangePasswordValues>();
  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      form.resetFields();
      void message.success(t('personal.password.done'));
      onDone?.();
    },
    onError: (error) => applyServerErrors(form, error),
  });

  async function submit(): Promise<void> {
    let values: ChangePasswordValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    mutation.mutate(values);
  }

  return { form, submit, pending: mutation.isPending };
}
