// Subscribing to a set with its code: a subscription code gives view rights, a control code control rights.
import { App as AntApp, Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/request.ts';
import { useSubscribe } from './api.ts';

export function SubscribeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ code: string }>();
  const subscribe = useSubscribe();

  const close = () => {
    form.resetFields();
    subscribe.reset();
    onClose();
  };

  const submit = async ({ code }: { code: string }) => {
    try {
      const result = await subscribe.mutateAsync(code.trim());
      void message.success(
        t('gensets.subscribe.done', { name: result.name, rights: t(`gensets.rights.${result.rights}`) }),
      );
      close();
    } catch (error) {
      const text = error instanceof ApiError ? error.fields.code || error.message : t('errors.network');
      form.setFields([{ name: 'code', errors: [text] }]);
    }
  };

  return (
    <Modal
      open={open}
      title={t('gensets.subscribe.title')}
      okText={t('gensets.subscribe.ok')}
      cancelText={t('common.actions.cancel')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={subscribe.isPending}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('gensets.subscribe.hint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" name="subscribe" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="code"
          label={t('gensets.subscribe.code')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            { max: 32, message: t('validation.tooLong') },
          ]}
        >
          <Input
            autoFocus
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            style={{ textTransform: 'uppercase', fontFamily: 'monospace' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
