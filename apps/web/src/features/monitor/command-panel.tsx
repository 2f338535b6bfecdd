// The set's control buttons, one per command of its protocol. Risky ones carry a warning sign; without
// control rights, or while the set is offline (a command cannot reach it), every button is disabled and the
// card says why.
import { useState } from 'react';
import { Button, Card, Flex, Skeleton, Tooltip, Typography } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { useCommands, type SetCommand } from './api.ts';
import { CommandDialog } from '../../components/command-dialog.tsx';

/** The usual order on a controller's front panel; commands a protocol adds come after these. */
const ORDER = ['start', 'stop', 'manual', 'auto', 'test', 'fault_reset', 'gen_breaker', 'mains_breaker'];

function rank(key: string): number {
  const index = ORDER.indexOf(key);
  return index === -1 ? ORDER.length : index;
}

export function CommandPanel({
  token,
  setName,
  allowed,
  offline = false,
}: {
  token: string;
  setName: string;
  allowed: boolean;
  /** The server has the set offline: nothing sent would reach its controller. */
  offline?: boolean;
}) {
  const { t } = useTranslation();
  const commands = useCommands(token);
  const [chosen, setChosen] = useState<SetCommand | null>(null);
  const list = [...(commands.data ?? [])].sort((a, b) => rank(a.key) - rank(b.key));

  return (
    <Card size="small" title={t('live.commands.title')} data-testid="command-panel">
      {commands.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : commands.isError ? (
        <ErrorState error={commands.error} onRetry={() => void commands.refetch()} />
      ) : list.length === 0 ? (
        <Typography.Text type="secondary">{t('live.commands.none')}</Typography.Text>
      ) : (
        <>
          <Flex wrap gap={8}>
            {list.map((command) => (
              <Tooltip key={command.key} title={offline ? t('live.commands.offline') : undefined}>
                <Button
                  type={command.key === 'start' ? 'primary' : 'default'}
                  danger={command.key === 'stop'}
                  icon={command.risky ? <WarningOutlined /> : undefined}
                  disabled={!allowed || offline}
                  onClick={() => setChosen(command)}
                  data-testid={`command-${command.key}`}
                >
                  {command.title}
                </Button>
              </Tooltip>
            ))}
          </Flex>
          {offline ? (
            <Typography.Paragraph type="warning" style={{ margin: '8px 0 0' }} data-testid="command-offline">
              {t('live.commands.offline')}
            </Typography.Paragraph>
          ) : null}
          {allowed ? null : (
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }} data-testid="command-no-rights">
              {t('live.commands.noRights')}
            </Typography.Paragraph>
          )}
        </>
      )}
      <CommandDialog token={token} setName={setName} command={chosen} onClose={() => setChosen(null)} />
    </Card>
  );
}
