// A dialog around one form: its OK button (Save unless told otherwise) submits the form, Cancel closes it. A
// refused save puts the server's messages beside their fields, or shows the error when none is about a field.
import type { ReactNode } from 'react';
import { App as AntApp, Form, Modal, type FormInstance, type FormProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyServerErrors } from './server-errors.ts';

export function FormDialog<V extends object>({
  form,
  open,
  title,
  okText,
  saving,
  onClose,
  onSave,
  initialValues,
  width,
  testId,
  children,
}: {
  form: FormInstance<V>;
  open: boolean;
  title: ReactNode;
  okText?: ReactNode;
  saving: boolean;
  onClose: () => void;
  /** Saves the valid values; what it throws is shown as said above. */
  onSave: (values: V) => Promise<void>;
  initialValues: FormProps<V>['initialValues'];
  width?: number;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const submit = async (values: V) => {
    try {
      await onSave(values);
    } catch (err) {
      applyServerErrors(form, err);
      if (!Object.keys((err as { fields?: object }).fields ?? {}).length) void message.error((err as Error).message);
    }
  };
  return (
    <Modal
      open={open}
      {...(width === undefined ? {} : { width })}
      title={title}
      okText={okText ?? t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid={testId}
    >
      <Form<V> form={form} layout="vertical" preserve={false} onFinish={submit} initialValues={initialValues}>
        {children}
      </Form>
    </Modal>
  );
}
