// Copies a version under a new key, with its name in six languages (the source's to start from): the copy is
// a protocol of its own, draft version 1.
import { useEffect } from 'react';
import { App as AntApp, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProtocolSummary, ProtocolText } from '@genset/protocol';
import { problemsOf, useCopyProtocol, useProtocolInfo } from './api.ts';
import { useDocumentRules } from './document-rules.ts';
import { ProblemList } from './problem-list.tsx';
import { TextFields } from './text-fields.tsx';

interface CopyForm {
  key: string;
  name: ProtocolText;
}

export function CopyProtocolDialog({ source, onClose }: { source: ProtocolSummary | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useDocumentRules();
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
    <Modal
      open={source !== null}
      title={source ? t('protocols.copy.title', { key: source.key, version: source.version }) : ''}
      okText={t('protocols.copy.ok')}
      cancelText={t('common.actions.cancel')}
      onOk={() => form.submit()}
      onCancel={close}
      confirmLoading={copy.isPending}
      width={720}
      forceRender
      maskClosable={false}
    >
      <ProblemList problems={problemsOf(copy.error)} />
      <Form form={form} layout="vertical" name="copy-protocol" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="key"
          label={t('protocols.fields.protocolKey')}
          tooltip={t('protocols.hints.protocolKey')}
          rules={rules.protocolKey}
        >
          <Input maxLength={60} spellCheck={false} />
        </Form.Item>
        <TextFields name="name" label={t('protocols.fields.name')} />
      </Form>
    </Modal>
  );
}
