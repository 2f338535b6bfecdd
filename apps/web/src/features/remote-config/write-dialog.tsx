// The risky-operation confirmation of spec 5 before settings are written: the warning, what will change, and
// the account password.
import { useEffect } from 'react';
import { Alert, Form, Input, List, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigParamValue } from '@genset/protocol';
import { useFormRules } from '../../components/form-rules.ts';
import { valueText } from './outcome.ts';

export interface PendingChange {
  param: ConfigParamValue;
  value: number;
}

export function WriteDialog(props: {
  changes: PendingChange[] | null;
  writing: boolean;
  /** A message for the password field (e.g. wrong password), set by the caller after a refusal. */
  passwordError: string | null;
  onConfirm: (password: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ password: string }>();
  const open = props.changes !== null;

  useEffect(() => {
    if (!open) form.resetFields();
  }, [form, open]);

  useEffect(() => {
    if (props.passwordError) form.setFields([{ name: 'password', errors: [props.passwordError] }]);
  }, [form, props.passwordError]);

  const none = t('common.none');
  return (
    <Modal
      open={open}
      title={t('remoteConfig.write.title')}
      okText={t('remoteConfig.write.ok')}
      okButtonProps={{ danger: true }}
      cancelText={t('common.actions.cancel')}
      confirmLoading={props.writing}
      onOk={() => form.submit()}
      onCancel={props.onCancel}
      maskClosable={false}
      forceRender
    >
      <Alert
        type="error"
        showIcon
        title={t('remoteConfig.write.warningTitle')}
        description={t('remoteConfig.write.warning')}
        style={{ marginBottom: 16 }}
      />
      <Typography.Text strong>{t('remoteConfig.write.changes', { count: props.changes?.length ?? 0 })}</Typography.Text>
      <List
        size="small"
        data-testid="pending-changes"
        dataSource={props.changes ?? []}
        style={{ marginBottom: 16 }}
        renderItem={({ param, value }) => (
          <List.Item>
            <span>{param.name}</span>
            <span>
              {valueText(param, param.value, none)} → <strong>{valueText(param, value, none)}</strong>
            </span>
          </List.Item>
        )}
      />
      <Form form={form} layout="vertical" name="config-write" onFinish={({ password }) => props.onConfirm(password)}>
        <Form.Item name="password" label={t('remoteConfig.write.password')} rules={rules.signInPassword}>
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
