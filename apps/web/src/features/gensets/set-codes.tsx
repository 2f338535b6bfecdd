// A set's subscription code (view rights) and control code (control rights), copyable, with a way to issue
// new ones (the old codes stop working; subscribers keep their rights).
import { App as AntApp, Button, Descriptions, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useResetCodes } from './api.ts';

export function SetCodes({
  token,
  subscriptionCode,
  controlCode,
}: {
  token: string;
  subscriptionCode: string | null;
  controlCode: string | null;
}) {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const reset = useResetCodes();
  if (!subscriptionCode && !controlCode) return null;

  const confirmReset = () =>
    modal.confirm({
      title: t('gensets.codes.resetTitle'),
      content: t('gensets.codes.resetContent'),
      okText: t('gensets.codes.reset'),
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        await reset.mutateAsync(token);
        void message.success(t('gensets.codes.resetDone'));
      },
    });

  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      data-testid="set-codes"
      extra={
        <Button size="small" icon={<ReloadOutlined />} onClick={confirmReset}>
          {t('gensets.codes.reset')}
        </Button>
      }
      title={t('gensets.codes.title')}
      items={[
        {
          key: 'sub',
          label: t('gensets.codes.subscription'),
          children: (
            <Typography.Text code copyable data-testid="subscription-code">
              {subscriptionCode}
            </Typography.Text>
          ),
        },
        {
          key: 'control',
          label: t('gensets.codes.control'),
          children: (
            <Typography.Text code copyable data-testid="control-code">
              {controlCode}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}
