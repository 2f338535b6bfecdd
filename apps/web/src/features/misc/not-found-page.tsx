// /404: where unknown paths end up.
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSession((s) => Boolean(s.token));
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Result
        status="404"
        title={<h1 style={{ margin: 0, fontSize: 48 }}>404</h1>}
        subTitle={t('pages.notFound.text')}
        extra={
          <Button type="primary" onClick={() => navigate(signedIn ? '/index' : '/login')}>
            {signedIn ? t('pages.notFound.home') : t('pages.notFound.login')}
          </Button>
        }
      />
    </main>
  );
}
