// Whether the group's values arrive live: "live" while the realtime connection is open, "offline" while it is
// lost and being re-established.
import { useTranslation } from 'react-i18next';
import type { ConnectionState } from '../../realtime/index.ts';
import { ToneTag } from '../../components/tone-tag.tsx';

export function ConnectionBadge({ connection }: { connection: ConnectionState }) {
  const { t } = useTranslation();
  const state = connection === 'open' ? 'live' : connection === 'offline' ? 'offline' : 'connecting';
  return (
    <ToneTag tone={state === 'live' ? 'green' : state === 'offline' ? 'red' : 'grey'} data-testid="live-connection">
      {t(`groups.connection.${state}`)}
    </ToneTag>
  );
}
