// Shown instead of every page while an administrator's temporary password waits to be changed: the three
// password fields and a way out. Once changed, the console starts again with the person's pages.
import { Alert, Button, Space, Typography } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PublicCard } from '../../components/public-card.tsx';
import { logout } from '../../api/session.ts';
import { ChangePasswordForm } from '../personal/change-password-form.tsx';
import { useChangePassword } from '../personal/use-change-password.ts';

export function UserPasswordRequired() {
  const { t } = useTranslation();
  const { form, submit, pending } = useChangePassword(() => window.location.assign('/index'));
  return (
    <main style={{ display: 'flex', justifyContent: 'center', padding: '48px 16px' }} data-testid="password-required">
      <PublicCard style={{ width: '100%', maxWidth: 420 }}>
        <Typography.Title level={3}>
          <KeyOutlined /> {t('admin.passwordRequired.title')}
        </Typography.Title>
        <Alert type="warning" showIcon message={t('admin.passwordRequired.hint')} style={{ marginBottom: 16 }} />
        <ChangePasswordForm form={form} name="password-required" />
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Button
            onClick={() => {
              void logout().then(() => window.location.assign('/login'));
            }}
          >
            {t('admin.passwordRequired.signOut')}
          </Button>
          <Button type="primary" loading={pending} onClick={() => void submit()}>
            {t('admin.passwordRequired.submit')}
          </Button>
        </Space>
      </PublicCard>
    </main>
  );
}
