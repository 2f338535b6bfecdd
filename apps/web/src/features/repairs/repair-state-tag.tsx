// The state of a repair request as a tag, in a tone per state.
import { useTranslation } from 'react-i18next';
import type { RepairState } from '@genset/protocol';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';

export const STATE_TONES: Record<RepairState, Tone> = {
  submitted: 'orange',
  accepted: 'blue',
  in_progress: 'purple',
  done: 'green',
  rejected: 'red',
};

export function RepairStateTag({ state }: { state: RepairState }) {
  const { t } = useTranslation();
  return (
    <ToneTag tone={STATE_TONES[state]} data-testid="repair-state" data-state={state}>
      {t(`repairs.state.${state}`)}
    </ToneTag>
  );
}
