// What the user may do with a set: owner, manage, control or view (spec 3 "Subscription").
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GensetRights } from '@genset/protocol';

const COLORS: Record<GensetRights | 'owner', string> = {
  owner: 'gold',
  manage: 'purple',
  control: 'cyan',
  view: 'default',
};

export function RightsTag({ rights, owned = false }: { rights: GensetRights; owned?: boolean }) {
  const { t } = useTranslation();
  const key = owned ? 'owner' : rights;
  return (
    <Tag color={COLORS[key]} style={{ marginInlineEnd: 0 }}>
      {t(`gensets.rights.${key}`)}
    </Tag>
  );
}
