// /showvideo: the stand-alone video player page; no stream is chosen here yet.
import { VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from './placeholder-page.tsx';

export function ShowVideoPage() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage
      icon={<VideoCameraOutlined />}
      title={t('pages.showVideo.title')}
      text={t('pages.showVideo.text')}
    />
  );
}
