// A command to a whole group: the confirmation (the sets named, a risky command's warning and password), one
// call that hands it to the server, and its progress set by set as the server reports it (each set waiting,
// on its way, carried out, failed or refused, with the reason). The server goes on whether or not the page stays
// open; the group page shows the latest command while it runs and for a while after.
import { useState } from 'react';
import { Alert, Card, Form, List, Modal, Spin, Typography, type ButtonProps } from 'antd';
import { CheckCircleFilled, ClockCircleOutlined, CloseCircleFilled, MinusCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ResultCode, type GroupCommandJob, type GroupCommandSetState } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import type { SetCommand } from '../../api/commands.ts';
import { RiskyCommandPassword } from '../../components/command-dialog.tsx';
import { useGroupCommandJob, useStartGroupCommand } from './api.ts';

/** A finished command stays on the group page this long. */
const SHOWN_AFTER_MS = 10 * 60_000;

function StateIcon({ state }: { state: GroupCommandSetState }) {
  switch (state) {
    case 'ok':
      return <CheckCircleFilled style={{ color: '#389e0d' }} />;
    case 'failed':
      return <CloseCircleFilled style={{ color: '#cf1322' }} />;
    case 'refused':
      return <MinusCircleFilled style={{ color: '#d46b08' }} />;
    case 'sending':
      return <Spin size="small" />;
    default:
      return <ClockCircleOutlined style={{ color: '#8c8c8c' }} />;
  }
}

/** Each set of the job with where its command is, and its outcome in the reader's language. */
export function GroupCommandProgress({ job }: { job: GroupCommandJob }) {
  const { t } = useTranslation();
  const settled = job.sets.filter((s) => s.state !== 'pending' && s.state !== 'sending').length;
  return (
    <List
      size="small"
      header={
        <Typography.Text strong data-testid="group-command-summary" data-state={job.state}>
          {job.state === 'running'
            ? t('groups.command.running', { command: job.title, done: settled, total: job.sets.length })
            : t('groups.command.finished', { command: job.title })}
        </Typography.Text>
      }
      dataSource={job.sets}
      data-testid="group-command-sets"
      renderItem={(set) => (
        <List.Item data-testid="group-command-set" data-state={set.state}>
          <List.Item.Meta
            avatar={<StateIcon state={set.state} />}
            title={set.name}
            description={set.text || t(`groups.command.states.${set.state}`)}
          />
        </List.Item>
      )}
    />
  );
}

export interface GroupCommandDialogProps {
  group: { token: string; name: string; sets: string[] };
  command: SetCommand | null;
  onClose: () => void;
}

/** Confirms the command to every set of the group, hands it to the server and follows it. */
export function GroupCommandDialog({ group, command, onClose }: GroupCommandDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const start = useStartGroupCommand();
  const latest = useGroupCommandJob(group.token);
  const [jobId, setJobId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const job = jobId !== null && latest.data?.id === jobId ? latest.data : null;

  const close = () => {
    form.resetFields();
    setJobId(null);
    setError(null);
    start.reset();
    onClose();
  };

  async function submit() {
    if (!command) return;
    if (jobId !== null) {
      close();
      return;
    }
    let password: string | undefined;
    if (command.risky) {
      try {
        password = (await form.validateFields()).password;
      } catch {
        return;
      }
    }
    setError(null);
    try {
      const started = await start.mutateAsync({
        token: group.token,
        action: command.key,
        ...(password === undefined ? {} : { password }),
      });
      setJobId(started.id);
    } catch (err) {
      if (err instanceof ApiError && command.risky && err.code === ResultCode.invalid) {
        // a wrong or missing password: let the user type it again
        form.setFields([{ name: 'password', errors: [err.fields.password ?? err.message] }]);
        return;
      }
      setError(err instanceof Error ? err.message : t('live.commands.failed'));
    }
  }

  return (
    <Modal
      open={command !== null}
      title={command ? t('live.commands.confirmGroupTitle', { command: command.title, group: group.name }) : null}
      okText={jobId !== null ? t('live.commands.close') : t('live.commands.send')}
      cancelText={t('common.actions.cancel')}
      cancelButtonProps={{ style: jobId !== null ? { display: 'none' } : undefined }}
      okButtonProps={
        {
          danger: command?.risky && jobId === null,
          loading: start.isPending,
          'data-testid': 'command-confirm',
        } as ButtonProps
      }
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      maskClosable={!start.isPending}
      data-testid="command-dialog"
    >
      {command && jobId !== null ? (
        <>
          {job ? <GroupCommandProgress job={job} /> : <Spin />}
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            {t('groups.command.carriesOn')}
          </Typography.Paragraph>
        </>
      ) : command ? (
        <>
          <Typography.Paragraph>
            {t('live.commands.confirmGroup', { command: command.title, group: group.name, count: group.sets.length })}
          </Typography.Paragraph>
          <ul className="command-dialog-sets">
            {group.sets.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
          <Typography.Paragraph type="secondary">{t('groups.command.carriesOn')}</Typography.Paragraph>
          {error ? (
            <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="command-error" />
          ) : null}
          {command.risky ? <RiskyCommandPassword form={form} onSubmit={() => void submit()} /> : null}
        </>
      ) : null}
    </Modal>
  );
}

/** The group's latest command on its page: while the server runs it, and for a while after. */
export function GroupCommandCard({ token, hidden }: { token: string; hidden: boolean }) {
  const { t } = useTranslation();
  const latest = useGroupCommandJob(token);
  const job = latest.data;
  if (hidden || !job) return null;
  // (the moment of the answer: a finished command is shown for a while after it ended)
  const recent = job.state === 'running' || (job.finishedAt ?? 0) > latest.dataUpdatedAt - SHOWN_AFTER_MS;
  if (!recent) return null;
  return (
    <Card size="small" title={t('groups.command.cardTitle', { by: job.by })} data-testid="group-command-card">
      <GroupCommandProgress job={job} />
    </Card>
  );
}
