// /test: a page that only proves the console is served and running.
import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from './placeholder-page.tsx';

export function TestPage() {
  const { t } = useTranslation();
  return <PlaceholderPage icon={<ExperimentOutlined />} title={t('pages.test.title')} text={t('pages.test.text')} />;
}
