// Choosing one of the user's sets by name or number (searched on the server as the user types).
import { useDeferredValue, useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_HEX, statusKey } from '../../components/set-status.ts';
import { useSetOptions } from './api.ts';

export function SetPicker({
  value,
  onChange,
  allowClear = false,
  placeholder,
  style,
}: {
  value: string | undefined;
  onChange: (token: string | undefined) => void;
  allowClear?: boolean;
  placeholder?: string;
  style?: React.CSSProperties;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const sets = useSetOptions(deferred.trim());
  const options = (sets.data?.list ?? []).map((s) => ({
    value: s.token,
    label: (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
        <span
          aria-hidden
          style={{
            width: 8,
            height: 8,
            borderRadius: '50%',
            background: STATUS_HEX[statusKey(s.status)],
            boxShadow: s.alarmCount > 0 ? `0 0 0 2px ${STATUS_HEX.alarm}` : undefined,
          }}
        />
        {s.name}
        {s.number ? <span style={{ color: 'rgba(0,0,0,0.55)' }}>{s.number}</span> : null}
      </span>
    ),
    name: s.name,
  }));
  return (
    <Select<string>
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={(v) => onChange(v || undefined)}
      onClear={() => onChange(undefined)}
      allowClear={allowClear}
      placeholder={placeholder ?? t('history.pickSet')}
      aria-label={t('history.set')}
      loading={sets.isFetching}
      options={options}
      optionLabelProp="label"
      // A set chosen elsewhere (a link) may not be among the options yet: no raw token meanwhile.
      labelRender={(chosen) => chosen.label ?? (sets.isFetching ? t('common.states.loading') : t('history.set'))}
      style={{ minWidth: 220, ...style }}
      data-testid="set-picker"
      notFoundContent={sets.isPending ? t('common.states.loading') : t('history.noSets')}
    />
  );
}
