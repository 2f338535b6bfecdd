// A set's subscription code (view rights) and control code (control rights), copyable, with a way to issue
// new ones (the old codes stop working; subscribers keep their rights).
import { useState } from 'react';
import { App as AntApp, Button, Descriptions, Space, Typography } from 'antd';
import { QrcodeOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useResetCodes } from './api.ts';
import { ShareCodeDialog, type CodeKind } from './share-code-dialog.tsx';

export function SetCodes({
  token,
  setName,
  subscriptionCode,
  controlCode,
}: {
  token: string;
  setName: string;
  subscriptionCode: string | null;
  controlCode: string | null;
}) {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const reset = useResetCodes();
  const [sharing, setSharing] = useState<CodeKind | null>(null);
  if (!subscriptionCode && !controlCode) return null;

  const codeOf = (kind: CodeKind) => (kind === 'subscription' ? subscriptionCode : controlCode) ?? '';
  const withQr = (kind: CodeKind, testId: string) => (
    <Space wrap>
      <Typography.Text code copyable data-testid={testId}>
        {codeOf(kind)}
      </Typography.Text>
      <Button
        size="small"
        icon={<QrcodeOutlined />}
        onClick={() => setSharing(kind)}
        aria-label={`${t('gensets.share.qr')}: ${t(`gensets.codes.${kind}`)}`}
      >
        {t('gensets.share.qr')}
      </Button>
    </Space>
  );

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
    <>
      {sharing ? (
        <ShareCodeDialog
          open
          onClose={() => setSharing(null)}
          setName={setName}
          kind={sharing}
          code={codeOf(sharing)}
        />
      ) : null}
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
            children: withQr('subscription', 'subscription-code'),
          },
          {
            key: 'control',
            label: t('gensets.codes.control'),
            children: withQr('control', 'control-code'),
          },
        ]}
      />
    </>
  );
}
