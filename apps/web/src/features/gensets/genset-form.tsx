// The set form of add and edit (spec 3): fields in groups (basic, rated values with units, location, module
// and controller, engine, alternator, fuel), checked by the same rules as the server's contract.
import { useMemo, type ReactNode } from 'react';
import {
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Switch,
  type FormInstance,
  type FormRule,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { gensetFieldShape, V } from '@genset/protocol';
import { FIELD_GROUPS, PART_FIELDS, type FieldDef, type FormValues } from './form-fields.ts';
import { useProtocolOptions } from './api.ts';
import { localUnit, withUnit } from '../../components/format.ts';

const TIME_ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

/** Rules of one field: required where the contract says so, then the contract's own check. */
function useFieldRules() {
  const { t } = useTranslation();
  return useMemo(
    () =>
      (field: FieldDef): FormRule[] => {
        const rules: FormRule[] = [];
        if (field.required) {
          rules.push({
            required: true,
            whitespace: true,
            message: field.name === 'name' ? t('gensets.form.nameRequired') : t(V.required),
          });
        }
        const schema = gensetFieldShape[field.name as keyof typeof gensetFieldShape];
        if (schema) {
          rules.push({
            validator: async (_rule, raw: unknown) => {
              // Empty means "not given"; the date comes from a picker and is always well formed.
              if (raw === undefined || raw === null || raw === '' || field.kind === 'date') return;
              const result = schema.safeParse(raw);
              if (result.success) return;
              const key = result.error.issues[0]?.message ?? V.invalid;
              if (key === 'validation.outOfRange' && field.min !== undefined && field.max !== undefined) {
                throw new Error(t('gensets.form.outOfRange', { min: field.min, max: field.max }));
              }
              if (key === V.url) throw new Error(t('validation.url'));
              if (key === V.tooLong) throw new Error(t('validation.tooLong'));
              if (field.kind === 'int') throw new Error(t('gensets.form.wholeNumber'));
              throw new Error(t(V.invalid));
            },
          });
        }
        return rules;
      },
    [t],
  );
}

/** The control of one field; Form.Item hands it value, onChange and id, which go on to the control. */
function FieldInput({ field, ...control }: { field: FieldDef } & Record<string, unknown>) {
  const { t } = useTranslation();
  const protocols = useProtocolOptions();
  switch (field.kind) {
    case 'number':
    case 'int':
      return (
        <InputNumber
          {...control}
          style={{ width: '100%' }}
          precision={field.kind === 'int' ? 0 : undefined}
          suffix={field.unit ? localUnit(field.unit) : undefined}
          controls={false}
          inputMode={field.kind === 'int' ? 'numeric' : 'decimal'}
          placeholder={`${field.min} – ${field.max}`}
        />
      );
    case 'select':
      return (
        <Select
          {...control}
          allowClear
          options={field.options?.map((o) => ({
            value: o,
            label:
              field.name === 'phases' ? t('gensets.form.phases', { count: o }) : `${o} ${localUnit(field.unit ?? '')}`,
          }))}
        />
      );
    case 'date':
      return <DatePicker {...control} style={{ width: '100%' }} format="YYYY-MM-DD" />;
    case 'switch':
      return <Switch {...control} />;
    case 'timezone':
      return <Select {...control} showSearch options={TIME_ZONES.map((z) => ({ value: z, label: z }))} />;
    case 'protocol':
      return (
        <Select
          {...control}
          showSearch
          optionFilterProp="label"
          loading={protocols.isPending}
          options={(protocols.data ?? []).map((p) => ({ value: p.key, label: `${p.name} (${p.key})` }))}
          notFoundContent={protocols.isError ? t('common.states.errorTitle') : undefined}
        />
      );
    default:
      return (
        <Input
          {...control}
          maxLength={field.maxLength}
          spellCheck={field.code ? false : undefined}
          autoComplete="off"
          className={field.code ? 'genset-mono' : undefined}
          placeholder={field.name === 'serviceLink' ? t('gensets.form.serviceLinkHint') : undefined}
        />
      );
  }
}

function GroupCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card size="small" title={<h2 style={{ fontSize: 15, margin: 0 }}>{title}</h2>}>
      <Row gutter={[16, 0]}>{children}</Row>
    </Card>
  );
}

export function GensetForm({
  form,
  initialValues,
  onSubmit,
  actions,
  extra,
}: {
  form: FormInstance<FormValues>;
  initialValues: Partial<FormValues>;
  onSubmit: (values: FormValues) => void;
  actions: ReactNode;
  /** Fields of the form beyond the set's own (the edit page's department). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const rulesOf = useFieldRules();
  const partRules: FormRule[] = [{ max: 64, message: t('validation.tooLong') }];

  return (
    <Form<FormValues>
      form={form}
      name="genset"
      layout="vertical"
      className="genset-form"
      initialValues={initialValues}
      onFinish={onSubmit}
      scrollToFirstError={{ behavior: 'smooth', block: 'center' }}
      requiredMark
    >
      {FIELD_GROUPS.map((group) => {
        if (group.key === 'engine' || group.key === 'alternator') {
          return (
            <GroupCard key={group.key} title={t(`gensets.groups.${group.key}`)}>
              {PART_FIELDS.map((part) => (
                <Col key={part} xs={24} sm={12} lg={8}>
                  <Form.Item name={[group.key, part]} label={t(`gensets.fields.part.${part}`)} rules={partRules}>
                    <Input maxLength={64} autoComplete="off" />
                  </Form.Item>
                </Col>
              ))}
            </GroupCard>
          );
        }
        return (
          <GroupCard key={group.key} title={t(`gensets.groups.${group.key}`)}>
            {group.fields.map((field) => (
              <Col key={field.name} xs={24} sm={12} lg={field.wide ? 16 : 8} xl={field.wide ? 12 : 6}>
                <Form.Item
                  name={field.name}
                  label={withUnit(t(`gensets.fields.${field.name}`), field.unit)}
                  rules={rulesOf(field)}
                  valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
                  tooltip={field.name === 'modemId' ? t('gensets.form.modemIdHint') : undefined}
                >
                  <FieldInput field={field} />
                </Form.Item>
              </Col>
            ))}
          </GroupCard>
        );
      })}
      {extra}
      <div className="genset-form-actions">{actions}</div>
    </Form>
  );
}
