// Draft or published, in colour and in words; the version sets run on says so too.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProtocolStatus } from '@genset/protocol';

export function StatusTag({ status, current }: { status: ProtocolStatus; current?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Tag color={status === 'published' ? 'green' : 'gold'}>{t(`protocols.status.${status}`)}</Tag>
      {current && <Tag color="blue">{t('protocols.status.current')}</Tag>}
    </>
  );
}
