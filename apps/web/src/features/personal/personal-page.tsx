// /user/personal: the personal centre.
import { Button, Card, Col, Row, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { useChangePassword } from './use-change-password.ts';
import { DeleteAccount } from './delete-account.tsx';
import { MessageSettings } from './message-settings.tsx';
import { NicknameForm } from './nickname-form.tsx';
import { ProfileSummary } from './profile-summary.tsx';

function PasswordTab() {
  const { t } = useTranslation();
  const { form, submit, pending } = useChangePassword();
  return (
    <div style={{ maxWidth: 480 }}>
      <ChangePasswordForm form={form} name="change-password" />
      <Button type="primary" onClick={() => void submit()} loading={pending}>
        {t('personal.password.submit')}
      </Button>
    </div>
  );
}

export function PersonalPage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  if (!user) return <FullPageLoading />;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <ProfileSummary />
      </Col>
      <Col xs={24} lg={16}>
        <Card title={<h1 style={{ fontSize: 18, margin: 0 }}>{t('personal.title')}</h1>}>
          <Tabs
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
