// Adding or editing a station in a dialog over My stations.
import { Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { SiteFormBody, useSiteForm } from './site-form.tsx';

export function SiteFormDialog({
  open,
  token,
  onClose,
}: {
  open: boolean;
  /** The station edited; null adds one. */
  token: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const state = useSiteForm({ token, active: open, onDone: onClose });
  const close = () => {
    state.reset();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={token ? t('sites.form.editTitle') : t('sites.form.addTitle')}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={state.saving}
      okButtonProps={{ disabled: state.loading, 'data-testid': 'site-form-save' } as ButtonProps}
      onOk={() => state.form.submit()}
      onCancel={close}
      width={760}
      destroyOnHidden
      data-testid="site-form"
    >
      <SiteFormBody state={state} />
    </Modal>
  );
}
