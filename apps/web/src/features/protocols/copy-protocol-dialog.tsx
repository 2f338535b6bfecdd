// Copies a version under a new key, with its name in six languages (the source's to start from): the copy is
// a protocol of its own, draft version 1.
import { useEffect } from 'react';
import { App as AntApp, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProtocolSummary, ProtocolText } from '@genset/protocol';
import { useCopyProtocol, useProtocolInfo } from './api.ts';
import { ProtocolDialog, ProtocolKeyField } from './protocol-dialog.tsx';
import { TextFields } from './text-fields.tsx';

interface CopyForm {
  key: string;
  name: ProtocolText;
}

export function CopyProtocolDialog({ source, onClose }: { source: ProtocolSummary | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<CopyForm>();
  const copy = useCopyProtocol();
  const info = useProtocolInfo(source?.id ?? 0);

  useEffect(() => {
    if (source && info.data && info.data.id === source.id) {
      form.setFieldsValue({ key: `${source.key}-copy`.slice(0, 60), name: info.data.name });
    }
  }, [form, info.data, source]);

  const close = () => {
    form.resetFields();
    copy.reset();
    onClose();
  };

  const submit = async (values: CopyForm) => {
    if (!source) return;
    try {
      const ref = await copy.mutateAsync({ id: source.id, key: values.key.trim(), name: values.name });
      void message.success(t('protocols.copy.done', { key: ref.key }));
      close();
    } catch {
      // the problems show in the dialog
    }
  };

  return (
    <ProtocolDialog<CopyForm>
      form={form}
      name="copy-protocol"
      open={source !== null}
      title={source ? t('protocols.copy.title', { key: source.key, version: source.version }) : ''}
      okText={t('protocols.copy.ok')}
      width={720}
      saving={copy.isPending}
      error={copy.error}
      onCancel={close}
      onFinish={submit}
    >
      <ProtocolKeyField />
      <TextFields name="name" label={t('protocols.fields.name')} />
    </ProtocolDialog>
  );
}
