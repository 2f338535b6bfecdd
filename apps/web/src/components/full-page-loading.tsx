// Whole-screen spinner while the session or a page's code loads.
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function FullPageLoading({ minHeight = '60vh' }: { minHeight?: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ minHeight, display: 'grid', placeItems: 'center' }} role="status" aria-live="polite">
      <Spin size="large" />
      <span className="visually-hidden">{t('common.states.loading')}</span>
    </div>
  );
}
