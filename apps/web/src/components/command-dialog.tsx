// Confirmation of one command: the set (or the sets of a group) and the command named; a risky one also carries
// the warning that non-professionals must not operate and asks for the account password (spec 5). The outcome
// is read from the raw answer (spec 8): for one set, success or the server's reason as a message; for a group,
// each set's result in the dialog. A wrong password stays in the form.
import { useState } from 'react';
import { Alert, App as AntApp, Form, Input, List, Modal, Typography, type ButtonProps } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ResultCode, type Envelope } from '@genset/protocol';
import { TOAST_SECONDS } from '../api/feedback.ts';
import { sendAction, type CommandOutcome, type SetCommand } from '../api/commands.ts';

export interface CommandTarget {
  token: string;
  name: string;
}

export interface CommandDialogProps {
  /** One set… */
  token?: string;
  setName?: string;
  /** …or every set of a group, each sent the command and reported on. */
  group?: { name: string; sets: CommandTarget[] };
  command: SetCommand | null;
  onClose: () => void;
}

interface TargetResult {
  target: CommandTarget;
  ok: boolean;
  text: string;
}

const succeeded = (answer: Envelope<CommandOutcome>) => answer.code === ResultCode.ok && answer.data?.state !== 'error';

export function CommandDialog({ token, setName, group, command, onClose }: CommandDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ password: string }>();
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<TargetResult[] | null>(null);
  const targets: CommandTarget[] = group ? group.sets : token ? [{ token, name: setName ?? '' }] : [];

  const close = () => {
    form.resetFields();
    setResults(null);
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

  async function submitOne(target: CommandTarget, password: string | undefined) {
    if (!command) return;
    const answer = await sendAction(target.token, command.key, password);
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

  /** The command to every set at once; each set's answer is shown, whatever the others'. */
  async function submitAll(password: string | undefined) {
    if (!command) return;
    const answers = await Promise.all(
      targets.map((target) =>
        sendAction(target.token, command.key, password).then(
          (answer) => ({ target, answer }),
          () => ({ target, answer: null }),
        ),
      ),
    );
    const wrongPassword = answers.every(({ answer }) => answer?.code === ResultCode.invalid);
    if (command.risky && wrongPassword) {
      const reason = answers[0]?.answer?.msg || t('live.commands.failed');
      form.setFields([{ name: 'password', errors: [reason] }]);
      return;
    }
    setResults(
      answers.map(({ target, answer }) =>
        answer && succeeded(answer)
          ? { target, ok: true, text: t('live.commands.done') }
          : {
              target,
              ok: false,
              text: answer ? answer.msg || answer.data?.info || t('live.commands.failed') : t('live.commands.notSent'),
            },
      ),
    );
  }

  async function submit() {
    if (!command) return;
    if (results) {
      close();
      return;
    }
    const password = await askPassword();
    if (password === false) return;
    setSending(true);
    try {
      if (group) await submitAll(password);
      else if (targets[0]) await submitOne(targets[0], password);
    } catch {
      // the request layer has shown why the call did not go through
    } finally {
      setSending(false);
    }
  }

  const title = command
    ? group
      ? t('live.commands.confirmGroupTitle', { command: command.title, group: group.name })
      : t('live.commands.confirmTitle', { command: command.title })
    : null;

  return (
    <Modal
      open={command !== null}
      title={title}
      okText={results ? t('live.commands.close') : t('live.commands.send')}
      cancelText={t('common.actions.cancel')}
      cancelButtonProps={{ style: results ? { display: 'none' } : undefined }}
      okButtonProps={
        { danger: command?.risky && !results, loading: sending, 'data-testid': 'command-confirm' } as ButtonProps
      }
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      maskClosable={!sending}
      data-testid="command-dialog"
    >
      {command && results ? (
        <List
          size="small"
          header={<Typography.Text strong>{t('live.commands.results')}</Typography.Text>}
          dataSource={results}
          data-testid="command-results"
          renderItem={(result) => (
            <List.Item data-testid="command-result" data-ok={result.ok ? 'true' : 'false'}>
              <List.Item.Meta
                avatar={
                  result.ok ? (
                    <CheckCircleFilled style={{ color: '#389e0d' }} />
                  ) : (
                    <CloseCircleFilled style={{ color: '#cf1322' }} />
                  )
                }
                title={result.target.name}
                description={result.text}
              />
            </List.Item>
          )}
        />
      ) : command ? (
        <>
          <Typography.Paragraph>
            {group
              ? t('live.commands.confirmGroup', { command: command.title, group: group.name, count: targets.length })
              : t('live.commands.confirm', { command: command.title, set: setName })}
          </Typography.Paragraph>
          {group ? (
            <ul className="command-dialog-sets">
              {targets.map((target) => (
                <li key={target.token}>{target.name}</li>
              ))}
            </ul>
          ) : null}
          {command.risky ? (
            <>
              <Alert type="warning" showIcon message={t('live.commands.riskyWarning')} style={{ marginBottom: 16 }} />
              <Form form={form} layout="vertical" onFinish={() => void submit()} requiredMark={false}>
                <Form.Item
                  name="password"
                  label={t('live.commands.password')}
                  rules={[{ required: true, message: t('live.commands.passwordRequired') }]}
                >
                  <Input.Password autoComplete="current-password" autoFocus data-testid="command-password" />
                </Form.Item>
              </Form>
            </>
          ) : null}
        </>
      ) : null}
    </Modal>
  );
}
