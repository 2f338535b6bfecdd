// Renders a legal text whose sections live in the locale files (legal.<doc>.sections.*).
import { Card, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame.tsx';

export interface LegalSection {
  heading: string;
  body: string[];
}

export function LegalDocument({ doc }: { doc: 'agreement' | 'privacy' }) {
  const { t } = useTranslation();
  const sections = t(`legal.${doc}.sections`, { returnObjects: true }) as LegalSection[];
  return (
    <PublicFrame width={860}>
      <Card>
        <article>
          <Typography.Title level={1} style={{ fontSize: 26, marginTop: 0 }}>
            {t(`legal.${doc}.title`)}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('legal.effective')}</Typography.Paragraph>
          <Typography.Paragraph>{t(`legal.${doc}.intro`)}</Typography.Paragraph>
          {Array.isArray(sections) &&
            sections.map((section, index) => (
              <section key={section.heading}>
                <Typography.Title level={2} style={{ fontSize: 18 }}>
                  {`${index + 1}. ${section.heading}`}
                </Typography.Title>
                {section.body.map((paragraph) => (
                  <Typography.Paragraph key={paragraph}>{paragraph}</Typography.Paragraph>
                ))}
              </section>
            ))}
          <Typography.Paragraph type="secondary">{t('legal.contact')}</Typography.Paragraph>
          <Link to="/login">{t('legal.back')}</Link>
        </article>
      </Card>
    </PublicFrame>
  );
}
