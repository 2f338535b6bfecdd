// The department a set or station belongs to, on their edit forms: the company's departments in tree order
// (indented by depth); cleared, the owner's department counts again. Moving one changes who reaches it
// through a department data scope.
import { Select } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DepartmentOption, DepartmentOptionsResponse, SetDepartmentResponse } from '@genset/protocol';
import { post } from '../../api/request.ts';

export function useDepartmentOptions() {
  return useQuery({
    queryKey: ['departments', 'options'],
    queryFn: ({ signal }) => post<DepartmentOptionsResponse>('/genset/departments', {}, { signal }),
    staleTime: 60_000,
  });
}

/** Moves sets (kind genset) or stations (kind site) to a department, or back to their owners' (null). */
export function useSetDepartment(kind: 'genset' | 'site') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { tokens: string[]; departmentId: number | null }) =>
      post<SetDepartmentResponse>(`/${kind}/setDepartment`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: [kind === 'genset' ? 'gensets' : 'sites'] }),
  });
}

/** The departments as choices: in tree order, each indented by its depth, found by its name alone. */
export function departmentChoices(list: readonly DepartmentOption[]) {
  return list.map((d) => ({ value: d.id, title: d.name, label: `${'\u2003'.repeat(d.depth)}${d.name}` }));
}

/**
 * A department of the company, or none of its own. `current`: the department it belongs to now (shown when it
 * has none of its own: its owner's).
 */
export function DepartmentSelect({
  value,
  onChange,
  current,
  id,
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  current: string | null;
  id?: string;
}) {
  const { t } = useTranslation();
  const options = useDepartmentOptions();
  return (
    <Select<number>
      id={id}
      allowClear
      showSearch
      optionFilterProp="title"
      loading={options.isPending}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      placeholder={current ? t('gensets.department.owners', { name: current }) : t('gensets.department.none')}
      options={departmentChoices(options.data?.list ?? [])}
      data-testid="department-select"
    />
  );
}
