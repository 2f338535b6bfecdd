// Restarting the set's cloud communication module, after a confirmation (spec 2, 8); disabled, with the reason,
// while the module is offline (the request could not reach it).
import { App as AntApp, Button, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/request.ts';
import { useSession } from '../../stores/session.ts';

/** What the module answered (state 'error' carries the reason in `info`). */
interface CommandResult {
  state: 'ok' | 'error';
  info: string;
}

export function RestartModuleButton({
  token,
  allowed,
  offline = false,
}: {
  token: string;
  allowed: boolean;
  /** The set's module is offline. */
  offline?: boolean;
}) {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const utoken = useSession((s) => s.token) ?? '';

  function confirm() {
    modal.confirm({
      title: t('top.restart.title'),
      content: t('top.restart.confirm'),
      okText: t('common.actions.confirm'),
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          const result = await request<CommandResult>('/devicedata/restartmodem', {
            method: 'POST',
            form: { token, utoken },
          });
          if (result?.state === 'error') void message.error({ content: result.info, duration: 3 });
          else void message.success(t('top.restart.done'));
        } catch {
          // the request layer has shown the server's reason
        }
      },
    });
  }

  return (
    <Tooltip title={offline ? t('top.restart.offline') : undefined}>
      <Button
        icon={<ReloadOutlined />}
        onClick={confirm}
        disabled={!token || !allowed || offline}
        data-testid="restart-module"
      >
        {t('top.restart.button')}
      </Button>
    </Tooltip>
  );
}
