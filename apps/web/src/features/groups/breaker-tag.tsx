// A set's generator breaker in a group: closed onto the bus (or its load), open, or synchronising to close.
import { useTranslation } from 'react-i18next';
import { ToneTag } from '../../components/tone-tag.tsx';
import type { GroupMember } from '@genset/protocol';

export function breakerState(member: GroupMember): 'closed' | 'open' | 'synchronising' | 'unknown' {
  if (member.status === 0) return 'unknown';
  if (member.values.gen_on_load === 1) return 'closed';
  if (member.values.synchronising === 1) return 'synchronising';
  return member.values.gen_on_load === 0 ? 'open' : 'unknown';
}

const TONE = { closed: 'green', open: 'grey', synchronising: 'orange', unknown: 'grey' } as const;

export function BreakerTag({ member }: { member: GroupMember }) {
  const { t } = useTranslation();
  const state = breakerState(member);
  return (
    <ToneTag tone={TONE[state]} data-testid="breaker" data-state={state}>
      {t(`groups.breaker.${state}`)}
    </ToneTag>
  );
}
