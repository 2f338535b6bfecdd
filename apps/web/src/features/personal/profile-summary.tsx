// Who the user is: account, type, company, department, role, invitation code, member since.
import { Avatar, Card, Descriptions, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

export function ProfileSummary() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const company = useSession((s) => s.company);
  if (!user) return null;
  const none = t('common.none');
  const created = user.createdAt ? dayjs(user.createdAt < 1e12 ? user.createdAt * 1000 : user.createdAt) : null;
  return (
    <Card>
      <div style={{ textAlign: 'center', marginBottom: 16 }}>
        <Avatar size={72} icon={<UserOutlined />} />
        <Typography.Title level={2} style={{ fontSize: 20, margin: '12px 0 0' }} data-testid="profile-name">
          {user.nickname || user.name}
        </Typography.Title>
        <Typography.Text type="secondary">{user.account}</Typography.Text>
      </div>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'type', label: t('personal.profile.type'), children: t(`auth.accountTypes.${user.type}`) },
          { key: 'company', label: t('personal.profile.company'), children: company?.name || none },
          { key: 'department', label: t('personal.profile.department'), children: user.departmentName || none },
          { key: 'role', label: t('personal.profile.role'), children: user.roleName || none },
          { key: 'invite', label: t('personal.profile.inviteCode'), children: user.inviteCode || none },
          {
            key: 'created',
            label: t('personal.profile.createdAt'),
            children: created?.isValid() ? created.format('LL') : none,
          },
        ]}
      />
    </Card>
  );
}
