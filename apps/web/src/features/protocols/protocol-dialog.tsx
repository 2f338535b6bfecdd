// The dialog of a new protocol or a copy: kept rendered while closed (its form with it), closed only by its
// buttons, the server's problems with the document above the form; and the protocol key field both ask for.
import type { ReactNode } from 'react';
import { Form, Input, Modal, type FormInstance, type FormProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { problemsOf } from './api.ts';
import { useDocumentRules } from './document-rules.ts';
import { ProblemList } from './problem-list.tsx';

export function ProtocolDialog<V extends object>({
  form,
  name,
  open,
  title,
  okText,
  width,
  saving,
  error,
  onCancel,
  onFinish,
  initialValues,
  children,
}: {
  form: FormInstance<V>;
  /** The form's name, which prefixes its fields' ids. */
  name: string;
  open: boolean;
  title: string;
  okText: string;
  width: number;
  saving: boolean;
  /** The last save's error, whose document problems are listed. */
  error: unknown;
  onCancel: () => void;
  onFinish: (values: V) => Promise<void>;
  initialValues?: FormProps<V>['initialValues'];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('common.actions.cancel')}
      onOk={() => form.submit()}
      onCancel={onCancel}
      confirmLoading={saving}
      width={width}
      forceRender
      maskClosable={false}
    >
      <ProblemList problems={problemsOf(error)} />
      <Form
        form={form}
        layout="vertical"
        name={name}
        {...(initialValues === undefined ? {} : { initialValues })}
        onFinish={(v) => void onFinish(v)}
      >
        {children}
      </Form>
    </Modal>
  );
}

/** The key a protocol is known by. */
export function ProtocolKeyField() {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  return (
    <Form.Item
      name="key"
      label={t('protocols.fields.protocolKey')}
      tooltip={t('protocols.hints.protocolKey')}
      rules={rules.protocolKey}
    >
      <Input maxLength={60} spellCheck={false} />
    </Form.Item>
  );
}
