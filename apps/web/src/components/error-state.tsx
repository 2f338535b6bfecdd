// What a page shows when its data could not be loaded: the reason and a way to try again.
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

export function ErrorState({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const detail = error instanceof Error && error.message ? error.message : undefined;
  return (
    <Result
      status="warning"
      title={t('common.states.errorTitle')}
      subTitle={detail ?? t('common.states.errorHint')}
      extra={
        onRetry ? (
          <Button type="primary" onClick={onRetry}>
            {t('common.actions.retry')}
          </Button>
        ) : null
      }
      role="alert"
    />
  );
}
