// /site/add and /site/edit/:token: the station form as a page of its own (the menu's addresses); saving goes
// back to My stations.
import { Button, Card, Space } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SITE_LIST_PATH } from './links.ts';
import { SiteFormBody, useSiteForm } from './site-form.tsx';
import './sites.css';

function SiteFormPage({ token }: { token: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = useSiteForm({ token, active: true, onDone: () => void navigate(SITE_LIST_PATH) });
  return (
    <Card
      title={<h1 className="ems-page-title">{token ? t('sites.form.editTitle') : t('sites.form.addTitle')}</h1>}
      style={{ maxWidth: 860 }}
      data-testid="site-form"
    >
      <SiteFormBody state={state} />
      <Space style={{ marginTop: 16 }}>
        <Button
          type="primary"
          loading={state.saving}
          disabled={state.loading}
          onClick={() => state.form.submit()}
          data-testid="site-form-save"
        >
          {t('common.actions.save')}
        </Button>
        <Button onClick={() => void navigate(SITE_LIST_PATH)}>{t('common.actions.cancel')}</Button>
      </Space>
    </Card>
  );
}

export function SiteAddPage() {
  return <SiteFormPage token={null} />;
}

export function SiteEditPage() {
  const { token } = useParams();
  return <SiteFormPage key={token} token={token ?? null} />;
}
