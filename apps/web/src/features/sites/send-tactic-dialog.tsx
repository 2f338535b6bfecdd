// Sending a tactic is a risky operation (spec 5): the dialog names the station, the strategy and the price
// template, warns that non-professionals must not operate, and asks for the account password. A wrong
// password stays in the form; the module's refusal or silence is said in the dialog.
import { useState } from 'react';
import { Alert, App as AntApp, Descriptions, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResultCode, type SendTacticRequest } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { useSendTactic } from './api.ts';
import './sites.css';

export interface TacticDraft extends Omit<SendTacticRequest, 'password'> {
  templateName: string;
}

export function SendTacticDialog({
  draft,
  stationName,
  onClose,
}: {
  draft: TacticDraft | null;
  stationName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ password: string }>();
  const send = useSendTactic();
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    setRefusal(null);
    onClose();
  };

  async function submit() {
    if (!draft) return;
    let password: string;
    try {
      password = (await form.validateFields()).password;
    } catch {
      return;
    }
    setRefusal(null);
    const { templateName: _name, ...request } = draft;
    try {
      const result = await send.mutateAsync({ ...request, password });
      void message.success(t('ems.send.accepted', { version: result.version }));
      close();
    } catch (error) {
      // a wrong password is refused without naming a field; refusals of the tactic name theirs
      if (error instanceof ApiError && error.code === ResultCode.invalid) {
        const fields = Object.keys(error.fields);
        if (fields.length === 0 || fields.includes('password')) {
          form.setFields([{ name: 'password', errors: [error.fields.password ?? error.message] }]);
          return;
        }
      }
      setRefusal(error instanceof Error ? error.message : t('ems.send.failed'));
    }
  }

  return (
    <Modal
      open={draft !== null}
      title={t('ems.send.confirmTitle')}
      okText={t('ems.send.send')}
      cancelText={t('common.actions.cancel')}
      okButtonProps={{ danger: true, className: 'ems-danger-strong', loading: send.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      maskClosable={!send.isPending}
      destroyOnHidden
      data-testid="send-tactic-dialog"
    >
      {draft ? (
        <>
          <Descriptions
            size="small"
            column={1}
            style={{ marginBottom: 12 }}
            items={[
              { key: 'station', label: t('ems.station'), children: stationName },
              { key: 'strategy', label: t('ems.tactic.strategy'), children: t(`ems.strategies.${draft.strategy}`) },
              { key: 'template', label: t('ems.tactic.template'), children: draft.templateName },
            ]}
          />
          <Alert type="warning" showIcon title={t('ems.send.riskyWarning')} style={{ marginBottom: 16 }} />
          {refusal ? (
            <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="send-refusal" />
          ) : null}
          <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
            <Form.Item
              name="password"
              label={t('ems.send.password')}
              rules={[{ required: true, message: t('ems.send.passwordRequired') }]}
            >
              <Input.Password autoComplete="current-password" autoFocus data-testid="send-password" />
            </Form.Item>
          </Form>
        </>
      ) : null}
    </Modal>
  );
}
