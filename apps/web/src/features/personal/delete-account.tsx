// Permanent deletion of the account, after a clear warning, the password and a final confirmation.
import { useState } from 'react';
import { Alert, App as AntApp, Button, Checkbox, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { logout } from '../../api/session.ts';
import { useFormRules } from '../../components/form-rules.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { deleteAccount } from './api.ts';

export function DeleteAccount() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { message, modal } = AntApp.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ password: string }>();
  const [understood, setUnderstood] = useState(false);

  const remove = useMutation({
    mutationFn: ({ password }: { password: string }) => deleteAccount(password),
    onSuccess: async () => {
      await logout();
      void message.success(t('personal.delete.done'));
      navigate('/login', { replace: true });
    },
    onError: (error) => applyServerErrors(form, error),
  });

  function confirm(values: { password: string }) {
    modal.confirm({
      title: t('personal.delete.confirmTitle'),
      content: t('personal.delete.confirmText'),
      okText: t('personal.delete.submit'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: () => remove.mutateAsync(values).catch(() => undefined),
    });
  }

  return (
    <div style={{ maxWidth: 520 }}>
      <Alert
        type="error"
        showIcon
        title={t('personal.delete.warningTitle')}
        description={t('personal.delete.warning')}
      />
      <Form form={form} layout="vertical" name="delete-account" onFinish={confirm} style={{ marginTop: 16 }}>
        <Form.Item name="password" label={t('personal.delete.password')} rules={rules.signInPassword}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item>
          <Checkbox checked={understood} onChange={(e) => setUnderstood(e.target.checked)}>
            {t('personal.delete.understand')}
          </Checkbox>
        </Form.Item>
        <Button danger type="primary" htmlType="submit" disabled={!understood} loading={remove.isPending}>
          {t('personal.delete.submit')}
        </Button>
      </Form>
    </div>
  );
}
