// Handing a set over: the receiving account, what the sender keeps once it is accepted (nothing, a view or a
// control subscription) and a remark. The set moves only when the receiver accepts.
import { App as AntApp, Alert, Form, Input, Modal, Radio, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { KEEP_SUBSCRIPTIONS, TRANSFER_REMARK_MAX, type KeepSubscription } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { useHandOver } from './api.ts';

interface Values {
  account: string;
  keepSubscription: KeepSubscription;
  remark?: string;
}

export function HandOverDialog({ set, onClose }: { set: { token: string; name: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<Values>();
  const handOver = useHandOver();

  const close = () => {
    form.resetFields();
    handOver.reset();
    onClose();
  };

  const submit = async (values: Values) => {
    if (!set) return;
    try {
      await handOver.mutateAsync({
        token: set.token,
        account: values.account.trim(),
        keepSubscription: values.keepSubscription,
        ...(values.remark?.trim() ? { remark: values.remark.trim() } : {}),
      });
      void message.success(t('transfers.handOver.done', { name: set.name }));
      close();
    } catch (error) {
      if (error instanceof ApiError && error.fields.account)
        form.setFields([{ name: 'account', errors: [error.fields.account] }]);
    }
  };

  const refused =
    handOver.error instanceof ApiError
      ? handOver.error.fields.account
        ? null
        : handOver.error.message
      : handOver.error
        ? t('errors.network')
        : null;

  return (
    <Modal
      open={Boolean(set)}
      title={t('transfers.handOver.title', { name: set?.name ?? '' })}
      okText={t('transfers.handOver.ok')}
      cancelText={t('common.actions.cancel')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={handOver.isPending}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('transfers.handOver.hint')} style={{ marginBottom: 16 }} />
      {refused ? (
        <Alert type="error" showIcon title={refused} style={{ marginBottom: 16 }} data-testid="hand-over-error" />
      ) : null}
      <Form
        form={form}
        layout="vertical"
        name="hand-over"
        initialValues={{ keepSubscription: 'none' }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          name="account"
          label={t('transfers.handOver.account')}
          extra={t('transfers.handOver.accountHint')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            { max: 254, message: t('validation.tooLong') },
          ]}
        >
          <Input autoFocus autoComplete="off" spellCheck={false} maxLength={254} />
        </Form.Item>
        <Form.Item name="keepSubscription" label={t('transfers.handOver.keep')}>
          <Radio.Group>
            <Space direction="vertical">
              {KEEP_SUBSCRIPTIONS.map((keep) => (
                <Radio key={keep} value={keep}>
                  {t(`transfers.keepChoice.${keep}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('transfers.handOver.remark')}
          rules={[{ max: TRANSFER_REMARK_MAX, message: t('validation.tooLong') }]}
        >
          <Input.TextArea rows={2} maxLength={TRANSFER_REMARK_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
