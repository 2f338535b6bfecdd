// A menu entry whose page this console version does not have yet.
import { Result } from 'antd';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

export function UnavailablePage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Result
      status="info"
      title={t('pages.unavailable.title')}
      subTitle={t('pages.unavailable.text', { path: pathname })}
    />
  );
}
