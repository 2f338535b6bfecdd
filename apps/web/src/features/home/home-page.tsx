// /index: the landing page after sign-in, greeting the user and pointing to the manual and their account.
import { Card, Col, Row, Typography } from 'antd';
import { BookOutlined, UserOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

export function HomePage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const company = useSession((s) => s.company);
  const name = user?.nickname || user?.name || user?.account || '';

  const shortcuts = [
    { to: '/help/list', icon: <BookOutlined />, title: t('home.manual.title'), text: t('home.manual.text') },
    { to: '/user/personal', icon: <UserOutlined />, title: t('home.personal.title'), text: t('home.personal.text') },
  ];

  return (
    <div>
      <Card style={{ marginBottom: 16 }}>
        <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }} data-testid="welcome">
          {t('home.welcome', { name })}
        </Typography.Title>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          {company?.name ? t('home.company', { company: company.name }) : t('home.noCompany')}
        </Typography.Paragraph>
        {user?.roleName ? (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('home.role', { role: user.roleName })}
          </Typography.Paragraph>
        ) : null}
      </Card>
      <Row gutter={[16, 16]}>
        {shortcuts.map((item) => (
          <Col key={item.to} xs={24} md={12}>
            <Link to={item.to} style={{ display: 'block' }}>
              <Card hoverable>
                <Card.Meta
                  avatar={<span style={{ fontSize: 28, color: '#0958d9' }}>{item.icon}</span>}
                  title={item.title}
                  description={item.text}
                />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </div>
  );
}
