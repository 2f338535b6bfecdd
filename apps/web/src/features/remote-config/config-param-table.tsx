// The settings of the chosen menu: the controller's value (with its dropdown label), an editor for the new
// value (a dropdown or a number with the parameter's step), the accepted range, and the outcome of a write.
import { Grid, InputNumber, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  EditOutlined,
  QuestionCircleOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ConfigParamValue } from '@genset/protocol';
import { decimalSeparator, localUnit } from '../../components/format.ts';
import { rangeText, valueProblem, valueText, type Outcome } from './outcome.ts';

export function ConfigParamTable(props: {
  params: ConfigParamValue[];
  /** Values the user changed, by key. */
  edits: Record<string, number>;
  outcomes: Record<string, Outcome>;
  loading: boolean;
  readOnly: boolean;
  onEdit: (key: string, value: number | null) => void;
}) {
  const { t } = useTranslation();
  const none = t('common.none');

  const outcomeTag = (param: ConfigParamValue) => {
    const outcome = props.outcomes[param.key];
    if (!outcome) return null;
    switch (outcome.kind) {
      case 'taken':
        return (
          <Tag color="green" icon={<CheckCircleOutlined />}>
            {outcome.changed ? t('remoteConfig.outcome.taken') : t('remoteConfig.outcome.unchanged')}
          </Tag>
        );
      case 'notTaken':
        return (
          <Tag color="red" icon={<CloseCircleOutlined />}>
            {t('remoteConfig.outcome.notTaken', { value: valueText(param, outcome.readBack, none) })}
          </Tag>
        );
      case 'unknown':
        return (
          <Tag color="orange" icon={<QuestionCircleOutlined />}>
            {t('remoteConfig.outcome.unknown')}
          </Tag>
        );
      case 'refused':
        return (
          <Tag color="red" icon={<StopOutlined />} style={{ whiteSpace: 'normal' }}>
            {t('remoteConfig.outcome.refused', { reason: outcome.reason })}
          </Tag>
        );
    }
  };

  const current = (param: ConfigParamValue) =>
    param.value === null ? (
      <Typography.Text type="secondary">{t('remoteConfig.notRead')}</Typography.Text>
    ) : (
      valueText(param, param.value, none)
    );
  const range = (param: ConfigParamValue) =>
    param.options ? t('remoteConfig.optionsCount', { count: param.options.length }) : rangeText(param);

  const editor = (param: ConfigParamValue) => {
    const edited = props.edits[param.key];
    const value = edited ?? param.value;
    const problem = edited === undefined ? null : valueProblem(param, edited);
    const label = t('remoteConfig.newValueOf', { name: param.name });
    const input = param.options ? (
      <Select<number>
        aria-label={label}
        value={value ?? undefined}
        disabled={props.readOnly || param.value === null}
        style={{ minWidth: 160 }}
        status={problem ? 'error' : undefined}
        onChange={(next) => props.onEdit(param.key, next)}
        options={param.options.map((option) => ({ value: option.value, label: option.label }))}
      />
    ) : (
      // No min/max on the input itself: it would silently turn a mistyped value into the nearest limit,
      // and a setting nobody typed would be written. The range is checked and shown instead.
      <InputNumber
        aria-label={label}
        value={value ?? undefined}
        step={10 ** -param.decimals}
        precision={param.decimals}
        decimalSeparator={decimalSeparator()}
        disabled={props.readOnly || param.value === null}
        status={problem ? 'error' : undefined}
        aria-invalid={problem ? true : undefined}
        aria-valuemin={param.min}
        aria-valuemax={param.max}
        suffix={param.unit ? localUnit(param.unit) : undefined}
        style={{ width: 170 }}
        onChange={(next) => props.onEdit(param.key, typeof next === 'number' ? next : null)}
      />
    );
    return (
      <Space orientation="vertical" size={2}>
        <Space size={4}>
          {input}
          {edited !== undefined && (
            <Tag color="gold" icon={<EditOutlined />}>
              {t('remoteConfig.changed')}
            </Tag>
          )}
        </Space>
        {problem && (
          <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert">
            {problem.kind === 'range'
              ? t('remoteConfig.problems.range', { range: rangeText(param) })
              : t('remoteConfig.problems.option')}
          </Typography.Text>
        )}
      </Space>
    );
  };

  const columns: TableColumnsType<ConfigParamValue> = [
    { key: 'name', title: t('remoteConfig.columns.name'), render: (_v, param) => param.name },
    { key: 'current', title: t('remoteConfig.columns.current'), render: (_v, param) => current(param) },
    { key: 'new', title: t('remoteConfig.columns.new'), render: (_v, param) => editor(param) },
    { key: 'range', title: t('remoteConfig.columns.range'), render: (_v, param) => range(param) },
    { key: 'outcome', title: t('remoteConfig.columns.outcome'), render: (_v, param) => outcomeTag(param) },
  ];
  // a phone has room for one column: each setting reads top down, name, current value, new value, range and
  // outcome, and nothing scrolls sideways
  const stacked: TableColumnsType<ConfigParamValue> = [
    {
      key: 'setting',
      title: t('remoteConfig.columns.name'),
      render: (_v, param) => (
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <Typography.Text strong>{param.name}</Typography.Text>
          <span>
            {t('common.labelled', { label: t('remoteConfig.columns.current'), value: '' })}
            {current(param)}
          </span>
          {editor(param)}
          <Typography.Text type="secondary">
            {t('common.labelled', { label: t('remoteConfig.columns.range'), value: range(param) })}
          </Typography.Text>
          {outcomeTag(param)}
        </Space>
      ),
    },
  ];
  const narrow = Grid.useBreakpoint().md === false;

  return (
    <Table<ConfigParamValue>
      size="small"
      rowKey="key"
      data-testid="config-params"
      loading={props.loading}
      dataSource={props.params}
      columns={narrow ? stacked : columns}
      pagination={false}
      scroll={narrow ? undefined : { x: 'max-content' }}
      rowClassName={(param) => {
        const edited = props.edits[param.key];
        if (edited === undefined) return '';
        return valueProblem(param, edited) ? 'config-row-problem' : 'config-row-changed';
      }}
    />
  );
}
