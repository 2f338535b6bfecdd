// /user/personal: the personal centre.
import { Card, Col, Row, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../stores/session.ts';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { DeleteAccount } from './delete-account.tsx';
import { MessageSettings } from './message-settings.tsx';
import { NicknameForm } from './nickname-form.tsx';
import { PasswordTab } from './password-tab.tsx';
import { ProfileSummary } from './profile-summary.tsx';

export function PersonalPage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const [params] = useSearchParams();
  if (!user) return <FullPageLoading />;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <ProfileSummary />
      </Col>
      <Col xs={24} lg={16}>
        <Card title={<h1 style={{ fontSize: 18, margin: 0 }}>{t('personal.title')}</h1>}>
          <Tabs
            defaultActiveKey={params.get('tab') ?? 'profile'}
            items={[
              { key: 'profile', label: t('personal.tabs.profile'), children: <NicknameForm /> },
              { key: 'password', label: t('personal.tabs.password'), children: <PasswordTab /> },
              { key: 'messages', label: t('personal.tabs.messages'), children: <MessageSettings /> },
              { key: 'delete', label: t('personal.tabs.delete'), children: <DeleteAccount /> },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
