// What the user may do with a set: owner, manage, control or view (spec 3 "Subscription").
import { useTranslation } from 'react-i18next';
import type { GensetRights } from '@genset/protocol';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';

const TONES: Record<GensetRights | 'owner', Tone> = {
  owner: 'gold',
  manage: 'purple',
  control: 'cyan',
  view: 'grey',
};

export function RightsTag({ rights, owned = false }: { rights: GensetRights; owned?: boolean }) {
  const { t } = useTranslation();
  const key = owned ? 'owner' : rights;
  return <ToneTag tone={TONES[key]}>{t(`gensets.rights.${key}`)}</ToneTag>;
}
