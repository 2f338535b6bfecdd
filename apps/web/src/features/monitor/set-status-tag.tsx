// A set's state as a coloured tag with its word: offline, stopped, standby, running — the same word as every
// other page's (components/set-status.ts).
import { ToneTag } from '../../components/tone-tag.tsx';
import { STATUS_TONE, stateWordKey, statusKey } from '../../components/set-status.ts';
import { useTranslation } from 'react-i18next';

export function SetStatusTag({ status }: { status: number | null | undefined }) {
  const { t } = useTranslation();
  const code = status ?? 0;
  return (
    <ToneTag
      tone={STATUS_TONE[statusKey(code)]}
      data-testid="status-tag"
      data-status={String(code)}
      data-state={statusKey(code)}
    >
      {t(stateWordKey(code))}
    </ToneTag>
  );
}
