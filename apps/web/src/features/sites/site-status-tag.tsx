// A station's state as a coloured tag with its word.
import { useTranslation } from 'react-i18next';
import { ToneTag } from '../../components/tone-tag.tsx';
import { SITE_STATUS_TONE, siteStatusName } from './site-status.ts';

export function SiteStatusTag({ status }: { status: number | null | undefined }) {
  const { t } = useTranslation();
  const name = siteStatusName(status);
  return (
    <ToneTag tone={SITE_STATUS_TONE[name]} data-status={name} data-testid="site-status">
      {t(`ems.status.${name}`)}
    </ToneTag>
  );
}
