// The password dialog opened from the user menu: confirm submits valid data; success or cancel clears it.
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from './change-password-form.tsx';
import { useChangePassword } from './use-change-password.ts';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { form, submit, pending } = useChangePassword(onClose);
  return (
    <Modal
      open={open}
      title={t('personal.password.title')}
      okText={t('common.actions.confirm')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={pending}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      forceRender
      destroyOnHidden={false}
    >
      <ChangePasswordForm form={form} name="change-password-dialog" />
    </Modal>
  );
}
