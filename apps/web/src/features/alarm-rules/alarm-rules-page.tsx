// The company's threshold rules (its administrators): an alarm on any value of its sets, e.g. fuel below 20 % for
// five minutes, coolant above 95 °C. Each rule says what it watches and when, the sets it applies to (every set,
// the sets of some controller models, chosen sets), and how many of its alarms are open now.
import { useDeferredValue, useMemo, useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  ALARM_LEVELS,
  ALARM_RULE_DELAY_MAX_S,
  ALARM_RULE_NAME_MAX,
  ALARM_RULE_OPS,
  ALARM_RULE_SCOPES,
  type AlarmLevelName,
  type AlarmRuleItem,
  type AlarmRuleOp,
  type AlarmRuleScope,
} from '@genset/protocol';
import { AlarmLevelTag } from '../../components/alarm-level-tag.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSetOptions } from '../history/api.ts';
import { useAlarmRules, useDeleteAlarmRule, useSaveAlarmRule } from './api.ts';
import { PolicyCard } from './policy-card.tsx';

interface FormValues {
  name: string;
  item: string;
  op: AlarmRuleOp;
  threshold: number;
  hysteresis: number;
  delaySeconds: number;
  level: AlarmLevelName;
  scope: AlarmRuleScope;
  protocols: string[];
  sets: string[];
  enabled: boolean;
}

const NEW_RULE: FormValues = {
  name: '',
  item: '',
  op: 'below',
  threshold: 0,
  hysteresis: 0,
  delaySeconds: 60,
  level: 'warning',
  scope: 'fleet',
  protocols: [],
  sets: [],
  enabled: true,
};

/** A delay as minutes when it is whole minutes, else seconds. */
function useDelayText() {
  const { t } = useTranslation();
  return (s: number) =>
    s === 0
      ? t('alarmRules.delay.none')
      : s % 60 === 0
        ? t('alarmRules.delay.minutes', { n: s / 60 })
        : t('alarmRules.delay.seconds', { n: s });
}

export function AlarmRulesPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useAlarmRules();
  const save = useSaveAlarmRule();
  const remove = useDeleteAlarmRule();
  const [editing, setEditing] = useState<AlarmRuleItem | 'new' | null>(null);
  const [form] = Form.useForm<FormValues>();
  const delayText = useDelayText();

  const items = useMemo(() => new Map((rules.data?.items ?? []).map((i) => [i.key, i])), [rules.data]);
  const models = useMemo(() => new Map((rules.data?.protocols ?? []).map((p) => [p.key, p.name])), [rules.data]);

  if (rules.isError) return <ErrorState error={rules.error} onRetry={() => void rules.refetch()} />;

  const unitOf = (key: string) => items.get(key)?.unit ?? '';
  const withUnit = (n: number, key: string) => `${n}${unitOf(key) ? ` ${unitOf(key)}` : ''}`;

  const initial: FormValues =
    editing && editing !== 'new'
      ? {
          name: editing.name,
          item: editing.item,
          op: editing.op,
          threshold: editing.threshold,
          hysteresis: editing.hysteresis,
          delaySeconds: editing.delaySeconds,
          level: editing.level,
          scope: editing.scope,
          protocols: editing.protocols,
          sets: editing.sets.map((s) => s.token),
          enabled: editing.enabled,
        }
      : NEW_RULE;

  return (
    <Flex vertical gap={16}>
      <Card
        title={t('alarmRules.title')}
        data-testid="alarm-rules-page"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="alarm-rule-add">
            {t('alarmRules.add')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('alarmRules.intro')}</Typography.Paragraph>
        <Table<AlarmRuleItem>
          rowKey="id"
          loading={rules.isPending}
          dataSource={rules.data?.list ?? []}
          pagination={false}
          scroll={{ x: 880 }}
          locale={{ emptyText: <EmptyState description={t('alarmRules.empty')} /> }}
          columns={[
            { title: t('alarmRules.name'), dataIndex: 'name' },
            {
              title: t('alarmRules.condition'),
              key: 'condition',
              render: (_, r) => (
                <Space direction="vertical" size={0}>
                  <span>
                    {t(`alarmRules.when.${r.op}`, {
                      item: items.get(r.item)?.name ?? r.item,
                      value: withUnit(r.threshold, r.item),
                    })}
                  </span>
                  <Typography.Text type="secondary">
                    {delayText(r.delaySeconds)} ·{' '}
                    {t('alarmRules.clearsAt', {
                      value: withUnit(
                        r.op === 'above' ? r.threshold - r.hysteresis : r.threshold + r.hysteresis,
                        r.item,
                      ),
                    })}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: t('alarmRules.level'),
              dataIndex: 'level',
              render: (level: string) => <AlarmLevelTag level={level} />,
            },
            {
              title: t('alarmRules.scope'),
              key: 'scope',
              render: (_, r) =>
                r.scope === 'fleet'
                  ? t('alarmRules.scopes.fleet')
                  : r.scope === 'protocols'
                    ? r.protocols.map((k) => <Tag key={k}>{models.get(k) ?? k}</Tag>)
                    : r.sets.map((s) => <Tag key={s.token}>{s.name}</Tag>),
            },
            {
              title: t('alarmRules.enabled'),
              dataIndex: 'enabled',
              render: (on: boolean) => (on ? t('alarmRules.on') : t('alarmRules.off')),
            },
            {
              title: t('alarmRules.active'),
              dataIndex: 'active',
              render: (n: number) => (n > 0 ? <Tag color="red">{n}</Tag> : n),
            },
            {
              title: t('alarmRules.actions'),
              key: 'actions',
              render: (_, r) => (
                <Space size={0} wrap>
                  <Button type="link" size="small" onClick={() => setEditing(r)}>
                    {t('alarmRules.edit')}
                  </Button>
                  <Popconfirm title={t('alarmRules.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                    <Button type="link" size="small" danger>
                      {t('alarmRules.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
        <FormDialog<FormValues>
          form={form}
          open={editing !== null}
          title={editing === 'new' ? t('alarmRules.add') : t('alarmRules.edit')}
          saving={save.isPending}
          onClose={() => setEditing(null)}
          initialValues={initial}
          width={560}
          testId="alarm-rule-form"
          onSave={async (values) => {
            await save.mutateAsync({ ...(editing && editing !== 'new' ? { id: editing.id } : {}), ...values });
            void message.success(t('common.saved'));
            setEditing(null);
          }}
        >
          <RuleFields
            items={rules.data?.items ?? []}
            models={rules.data?.protocols ?? []}
            chosenSets={editing && editing !== 'new' ? editing.sets : []}
          />
        </FormDialog>
      </Card>
      <PolicyCard />
    </Flex>
  );
}

function RuleFields({
  items,
  models,
  chosenSets,
}: {
  items: { key: string; name: string; unit: string }[];
  models: { key: string; name: string }[];
  chosenSets: { token: string; name: string }[];
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<FormValues>();
  const scope = Form.useWatch('scope', form);
  const item = Form.useWatch('item', form);
  const unit = items.find((i) => i.key === item)?.unit ?? '';
  const required = [{ required: true, message: t('validation.required') }];
  return (
    <>
      <Form.Item name="name" label={t('alarmRules.name')} rules={required}>
        <Input maxLength={ALARM_RULE_NAME_MAX} placeholder={t('alarmRules.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="item" label={t('alarmRules.item')} rules={required}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={items.map((i) => ({ value: i.key, label: i.unit ? `${i.name} (${i.unit})` : i.name }))}
          placeholder={t('alarmRules.pickItem')}
          data-testid="alarm-rule-item"
        />
      </Form.Item>
      <Space align="start" wrap>
        <Form.Item name="op" label={t('alarmRules.op')}>
          <Radio.Group
            optionType="button"
            options={ALARM_RULE_OPS.map((op) => ({ value: op, label: t(`alarmRules.ops.${op}`) }))}
          />
        </Form.Item>
        <Form.Item name="threshold" label={t('alarmRules.threshold')} rules={required}>
          <InputNumber style={{ width: 150 }} {...(unit ? { suffix: unit } : {})} data-testid="alarm-rule-threshold" />
        </Form.Item>
        <Form.Item name="hysteresis" label={t('alarmRules.hysteresis')} tooltip={t('alarmRules.hysteresisHelp')}>
          <InputNumber min={0} style={{ width: 130 }} {...(unit ? { suffix: unit } : {})} />
        </Form.Item>
      </Space>
      <Space align="start" wrap>
        <Form.Item name="delaySeconds" label={t('alarmRules.delayLabel')} tooltip={t('alarmRules.delayHelp')}>
          <InputNumber
            min={0}
            max={ALARM_RULE_DELAY_MAX_S}
            precision={0}
            style={{ width: 150 }}
            suffix={t('alarmRules.s')}
          />
        </Form.Item>
        <Form.Item name="level" label={t('alarmRules.level')}>
          <Select
            style={{ width: 150 }}
            options={ALARM_LEVELS.map((l) => ({ value: l, label: t(`gensets.levels.${l}`) }))}
          />
        </Form.Item>
      </Space>
      <Form.Item name="scope" label={t('alarmRules.scope')}>
        <Radio.Group options={ALARM_RULE_SCOPES.map((s) => ({ value: s, label: t(`alarmRules.scopes.${s}`) }))} />
      </Form.Item>
      {scope === 'protocols' && (
        <Form.Item name="protocols" label={t('alarmRules.models')} rules={required}>
          <Select mode="multiple" options={models.map((m) => ({ value: m.key, label: m.name }))} />
        </Form.Item>
      )}
      {scope === 'sets' && (
        <Form.Item name="sets" label={t('alarmRules.sets')} rules={required}>
          <SetsField chosen={chosenSets} />
        </Form.Item>
      )}
      <Form.Item name="enabled" label={t('alarmRules.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </>
  );
}

/** Chosen sets by name or number, searched on the server as one types. */
function SetsField({
  chosen,
  value,
  onChange,
}: {
  chosen: { token: string; name: string }[];
  value?: string[];
  onChange?: (v: string[]) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const sets = useSetOptions(deferred.trim());
  const options = new Map(chosen.map((s) => [s.token, s.name]));
  for (const s of sets.data?.list ?? []) options.set(s.token, s.name);
  return (
    <Select<string[]>
      mode="multiple"
      value={value ?? []}
      onChange={(v) => onChange?.(v)}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={sets.isFetching}
      options={[...options].map(([token, name]) => ({ value: token, label: name }))}
      placeholder={t('history.pickSet')}
      notFoundContent={sets.isPending ? t('common.states.loading') : t('history.noSets')}
    />
  );
}
