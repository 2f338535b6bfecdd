// Confirmation of one command to one set: the set and the command named; a risky one also carries the warning
// that non-professionals must not operate and asks for the account password (spec 5). The outcome is read from
// the raw answer (spec 8): success or the server's reason as a message. A wrong password stays in the form. (A
// command to a whole group is the server's job: features/groups/group-command.tsx.)
import { useState } from 'react';
import { Alert, App as AntApp, Form, Input, Modal, Typography, type ButtonProps, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResultCode, type Envelope } from '@genset/protocol';
import { TOAST_SECONDS } from '../api/feedback.ts';
import { sendAction, type CommandOutcome, type SetCommand } from '../api/commands.ts';

/**
 * What a risky command asks before it is sent: the warning that non-professionals must not operate, and the
 * account's password (one set's command and a whole group's alike).
 */
export function RiskyCommandPassword({ form, onSubmit }: { form: FormInstance; onSubmit: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="warning" showIcon message={t('live.commands.riskyWarning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={onSubmit} requiredMark={false}>
        <Form.Item
          name="password"
          label={t('live.commands.password')}
          rules={[{ required: true, message: t('live.commands.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" autoFocus data-testid="command-password" />
        </Form.Item>
      </Form>
    </>
  );
}

export interface CommandDialogProps {
  token: string;
  setName?: string;
  command: SetCommand | null;
  onClose: () => void;
}

const succeeded = (answer: Envelope<CommandOutcome>) => answer.code === ResultCode.ok && answer.data?.state !== 'error';

export function CommandDialog({ token, setName, command, onClose }: CommandDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ password: string }>();
  const [sending, setSending] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  async function askPassword(): Promise<string | undefined | false> {
    if (!command?.risky) return undefined;
    try {
      return (await form.validateFields()).password;
    } catch {
      return false;
    }
  }

  async function submitOne(password: string | undefined) {
    if (!command) return;
    const answer = await sendAction(token, command.key, password);
    if (succeeded(answer)) {
      void message.success({
        content: t('live.commands.sent', { command: command.title }),
        duration: TOAST_SECONDS.serverError,
      });
      close();
      return;
    }
    const reason = answer.msg || answer.data?.info || t('live.commands.failed');
    if (command.risky && answer.code === ResultCode.invalid) {
      // wrong or missing password: let the user type it again
      form.setFields([{ name: 'password', errors: [reason] }]);
      return;
    }
    void message.error({ content: reason, duration: TOAST_SECONDS.serverError });
    close();
  }

  async function submit() {
    if (!command || !token) return;
    const password = await askPassword();
    if (password === false) return;
    setSending(true);
    try {
      await submitOne(password);
    } catch {
      // the request layer has shown why the call did not go through
    } finally {
      setSending(false);
    }
  }

  const title = command ? t('live.commands.confirmTitle', { command: command.title }) : null;

  return (
    <Modal
      open={command !== null}
      title={title}
      okText={t('live.commands.send')}
      cancelText={t('common.actions.cancel')}
      okButtonProps={{ danger: command?.risky, loading: sending, 'data-testid': 'command-confirm' } as ButtonProps}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      maskClosable={!sending}
      data-testid="command-dialog"
    >
      {command ? (
        <>
          <Typography.Paragraph>
            {t('live.commands.confirm', { command: command.title, set: setName })}
          </Typography.Paragraph>
          {command.risky ? <RiskyCommandPassword form={form} onSubmit={() => void submit()} /> : null}
        </>
      ) : null}
    </Modal>
  );
}
