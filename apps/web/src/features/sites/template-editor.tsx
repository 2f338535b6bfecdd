// A price template's editor: a new template, or a new version of one (a change never rewrites the past: it
// is in force from "valid from", now by default). The day's periods on a 24-hour bar painted with a brush or
// typed as ranges, buy and sell prices per period, the power, the SOC cut-offs and margin, reverse-power
// protection and the demand limit. The server checks everything; its refusals appear beside the fields.
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App as AntApp,
  Button,
  Col,
  DatePicker,
  Divider,
  Drawer,
  Form,
  Input,
  InputNumber,
  Row,
  Segmented,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Typography,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  PRICE_MAX,
  PRICE_PERIODS,
  TARIFF_MAX_RANGES,
  TEMPLATE_NAME_MAX,
  type PriceTemplateBody,
  type PricePeriod,
  type TariffRange,
} from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { formatDateTime, localUnit } from '../../components/format.ts';
import { useSaveTemplate, useTemplateInfo } from './api.ts';
import { PeriodBar } from './period-bar.tsx';
import { PERIOD_HEX } from './periods.ts';
import { newTemplateBody } from './template-defaults.ts';
import { paintRanges } from './tariff-ranges.ts';
import './sites.css';

export interface TemplateValues extends Omit<PriceTemplateBody, 'ranges'> {
  name: string;
  validFrom: Dayjs | null;
  ranges: Partial<TariffRange>[];
}

/** Fields the form shows as items of their own; the server's refusal of one goes on the item. */
const ITEM_FIELDS = ['name', 'validFrom', 'powerKw', 'chargeCutoffSoc', 'dischargeCutoffSoc', 'socMargin'];
/** Fields made of several inputs; the server's refusal goes beneath the group. */
const GROUP_FIELDS = ['ranges', 'prices', 'reversePower', 'demandControl', 'chargeInFlat'] as const;

export interface Refusals {
  /** By group field. */
  groups: Partial<Record<(typeof GROUP_FIELDS)[number], string>>;
  /** A refusal not about one field (a name taken, a template gone…). */
  general: string | null;
}

/** Sorts a refusal's messages onto the form's items, its groups, or the editor as a whole. */
export function sortRefusal(error: unknown): { items: [string, string][]; refusals: Refusals } {
  const refusals: Refusals = { groups: {}, general: null };
  const items: [string, string][] = [];
  if (!(error instanceof ApiError)) {
    refusals.general = error instanceof Error ? error.message : null;
    return { items, refusals };
  }
  const fields = Object.entries(error.fields);
  for (const [field, text] of fields) {
    if (ITEM_FIELDS.includes(field)) items.push([field, text]);
    else if ((GROUP_FIELDS as readonly string[]).includes(field))
      refusals.groups[field as (typeof GROUP_FIELDS)[number]] = text;
    else refusals.general = text;
  }
  if (fields.length === 0) refusals.general = error.message;
  return { items, refusals };
}

function Refusal({ text, field }: { text: string | undefined; field: string }) {
  if (!text) return null;
  return (
    <Typography.Text type="danger" role="alert" data-testid={`refusal-${field}`} style={{ display: 'block' }}>
      {text}
    </Typography.Text>
  );
}

function toValues(name: string, body: PriceTemplateBody): TemplateValues {
  return { name, validFrom: null, ...body };
}

/** A range's start or end, hh:mm (24:00 for the end of the day). */
function ClockField({ name, label }: { name: [number, string]; label: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={name}
      rules={[{ pattern: /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, message: t('ems.template.clockHint') }]}
    >
      <Input className="ems-range-time" placeholder={t('ems.template.clock')} aria-label={label} maxLength={5} />
    </Form.Item>
  );
}

function RangeRows({ refusal }: { refusal: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Form.List name="ranges">
      {(fields, { add, remove }) => (
        <div data-testid="range-rows">
          {fields.map((field, index) => (
            <div key={field.key} className="ems-range-row" data-testid="range-row">
              <ClockField name={[field.name, 'start']} label={t('ems.template.rangeStart', { n: index + 1 })} />
              <ClockField name={[field.name, 'end']} label={t('ems.template.rangeEnd', { n: index + 1 })} />
              <Form.Item name={[field.name, 'period']}>
                <Select<PricePeriod>
                  className="ems-range-period"
                  aria-label={t('ems.template.rangePeriod', { n: index + 1 })}
                  options={PRICE_PERIODS.map((p) => ({
                    value: p,
                    label: (
                      <span>
                        <span className="ems-period-swatch" style={{ background: PERIOD_HEX[p] }} aria-hidden />
                        {t(`ems.periods.${p}`)}
                      </span>
                    ),
                  }))}
                />
              </Form.Item>
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('ems.template.removeRange', { n: index + 1 })}
                onClick={() => remove(field.name)}
                disabled={fields.length <= 1}
              />
            </div>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => add({ start: '', end: '', period: 'flat' })}
            disabled={fields.length >= TARIFF_MAX_RANGES}
          >
            {t('ems.template.addRange')}
          </Button>
          <Refusal text={refusal} field="ranges" />
        </div>
      )}
    </Form.List>
  );
}

function PriceTable() {
  const { t } = useTranslation();
  return (
    <Table<{ period: PricePeriod }>
      size="small"
      rowKey="period"
      pagination={false}
      dataSource={PRICE_PERIODS.map((period) => ({ period }))}
      data-testid="price-table"
      columns={[
        {
          key: 'period',
          title: t('ems.template.period'),
          render: (_, { period }) => (
            <span>
              <span className="ems-period-swatch" style={{ background: PERIOD_HEX[period] }} aria-hidden />
              {t(`ems.periods.${period}`)}
            </span>
          ),
        },
        ...(['buy', 'sell'] as const).map((side) => ({
          key: side,
          title: t(`ems.template.${side}`),
          render: (_: unknown, { period }: { period: PricePeriod }) => (
            <Form.Item name={['prices', period, side]} style={{ margin: 0 }}>
              <InputNumber
                min={0}
                max={PRICE_MAX}
                step={0.01}
                style={{ width: '100%', minWidth: 90 }}
                aria-label={t('ems.template.priceOf', {
                  period: t(`ems.periods.${period}`),
                  side: t(`ems.template.${side}`),
                })}
              />
            </Form.Item>
          ),
        })),
      ]}
    />
  );
}

/** A limit that applies when switched on (reverse power's margin, demand control's limit), in kW. */
function SwitchedLimit(props: {
  group: 'reversePower' | 'demandControl';
  field: 'marginKw' | 'limitKw';
  on: boolean | undefined;
  refusal: string | undefined;
}) {
  const { t } = useTranslation();
  const limit = props.group === 'reversePower' ? 'reverseMargin' : 'demandLimit';
  return (
    <>
      <Form.Item
        name={[props.group, 'enabled']}
        label={t(`ems.template.${props.group}`)}
        valuePropName="checked"
        extra={t(`ems.template.${props.group}Help`)}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name={[props.group, props.field]}
        label={`${t(`ems.template.${limit}`)} (${localUnit('kW')})`}
        hidden={!props.on}
      >
        <InputNumber min={0} style={{ width: '100%' }} />
      </Form.Item>
      <Refusal text={props.refusal} field={props.group} />
    </>
  );
}

export function TemplateEditor({
  open,
  templateId,
  station,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** A new version of this template; null: a new template. */
  templateId: number | null;
  station?: { ratingKw: number; transformerKw: number | null };
  onClose: () => void;
  onSaved?: (saved: { id: number; version: number }) => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<TemplateValues>();
  const info = useTemplateInfo(open ? templateId : null);
  const save = useSaveTemplate();
  const [brush, setBrush] = useState<PricePeriod>('peak');
  const [refusals, setRefusals] = useState<Refusals>({ groups: {}, general: null });
  const ranges = (Form.useWatch('ranges', form) ?? []) as Partial<TariffRange>[];
  const reverseOn = Form.useWatch(['reversePower', 'enabled'], form) as boolean | undefined;
  const demandOn = Form.useWatch(['demandControl', 'enabled'], form) as boolean | undefined;
  const loading = templateId !== null && !info.data;

  const initial = useMemo(
    () =>
      templateId === null
        ? toValues('', newTemplateBody(station))
        : info.data
          ? toValues(info.data.name, info.data.body)
          : null,
    [templateId, info.data, station],
  );

  useEffect(() => {
    if (!open || !initial) return;
    form.setFieldsValue(initial);
  }, [open, initial, form]);

  const close = () => {
    setRefusals({ groups: {}, general: null });
    onClose();
  };

  async function submit(values: TemplateValues) {
    setRefusals({ groups: {}, general: null });
    try {
      const { validFrom, ...rest } = values;
      const saved = await save.mutateAsync({
        ...(templateId === null ? {} : { id: templateId }),
        ...rest,
        ranges: rest.ranges as TariffRange[],
        ...(validFrom ? { validFrom: validFrom.valueOf() } : {}),
      });
      void message.success(t('ems.template.saved', { name: values.name, version: saved.version }));
      onSaved?.(saved);
      close();
    } catch (error) {
      const sorted = sortRefusal(error);
      form.setFields(sorted.items.map(([name, text]) => ({ name: name as keyof TemplateValues, errors: [text] })));
      setRefusals(sorted.refusals);
    }
  }

  const title =
    templateId === null ? t('ems.template.newTitle') : t('ems.template.versionTitle', { name: info.data?.name ?? '' });

  return (
    <Drawer
      open={open}
      onClose={close}
      title={title}
      size="large"
      styles={{ wrapper: { maxWidth: '100vw' } }}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={close}>{t('common.actions.cancel')}</Button>
          <Button
            type="primary"
            loading={save.isPending}
            disabled={loading}
            onClick={() => form.submit()}
            data-testid="template-save"
          >
            {t('common.actions.save')}
          </Button>
        </Space>
      }
      data-testid="template-editor"
    >
      {loading ? (
        <Spin />
      ) : (
        <Form<TemplateValues>
          form={form}
          className="ems-form"
          layout="vertical"
          initialValues={initial ?? undefined}
          onFinish={(values) => void submit(values)}
          onValuesChange={(changed: Partial<TemplateValues>) => {
            const touched = Object.keys(changed).filter((k) => k in refusals.groups);
            if (touched.length) {
              setRefusals((r) => ({
                ...r,
                groups: Object.fromEntries(Object.entries(r.groups).filter(([k]) => !touched.includes(k))),
              }));
            }
          }}
          requiredMark={false}
        >
          {refusals.general ? (
            <Alert type="error" showIcon title={refusals.general} style={{ marginBottom: 16 }} role="alert" />
          ) : null}
          <Row gutter={16}>
            <Col xs={24} md={14}>
              <Form.Item name="name" label={t('ems.template.name')}>
                <Input maxLength={TEMPLATE_NAME_MAX} />
              </Form.Item>
            </Col>
            <Col xs={24} md={10}>
              <Form.Item name="validFrom" label={t('ems.template.validFrom')} extra={t('ems.template.validFromHelp')}>
                <DatePicker
                  showTime={{ format: 'HH:mm' }}
                  format="YYYY-MM-DD HH:mm"
                  style={{ width: '100%' }}
                  placeholder={t('ems.template.now')}
                  disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
                />
              </Form.Item>
            </Col>
          </Row>

          <Divider titlePlacement="start">{t('ems.template.periods')}</Divider>
          <Space wrap size={8} style={{ marginBottom: 8 }}>
            <Typography.Text>{t('ems.template.brush')}</Typography.Text>
            <Segmented<PricePeriod>
              value={brush}
              onChange={setBrush}
              options={PRICE_PERIODS.map((p) => ({
                value: p,
                label: (
                  <span>
                    <span className="ems-period-swatch" style={{ background: PERIOD_HEX[p] }} aria-hidden />
                    {t(`ems.periods.${p}`)}
                  </span>
                ),
              }))}
              data-testid="period-brush"
            />
          </Space>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
            {t('ems.template.brushHelp')}
          </Typography.Paragraph>
          <PeriodBar
            ranges={ranges}
            brush={brush}
            onPaint={(from, to, period) => {
              form.setFieldValue('ranges', paintRanges(form.getFieldValue('ranges') ?? [], from, to, period));
              setRefusals((r) => ({ ...r, groups: { ...r.groups, ranges: undefined } }));
            }}
          />
          <div style={{ marginTop: 12 }}>
            <RangeRows refusal={refusals.groups.ranges} />
          </div>

          <Divider titlePlacement="start">{t('ems.template.prices')}</Divider>
          <PriceTable />
          <Refusal text={refusals.groups.prices} field="prices" />

          <Divider titlePlacement="start">{t('ems.template.operation')}</Divider>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item name="powerKw" label={`${t('ems.template.power')} (${localUnit('kW')})`}>
                <InputNumber min={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="socMargin" label={t('ems.template.margin')} extra={t('ems.template.marginHelp')}>
                <InputNumber min={0} max={20} suffix="%" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="chargeCutoffSoc" label={t('ems.template.chargeCutoff')}>
                <InputNumber min={0} max={100} suffix="%" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="dischargeCutoffSoc" label={t('ems.template.dischargeCutoff')}>
                <InputNumber min={0} max={100} suffix="%" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="chargeInFlat" label={t('ems.template.chargeInFlat')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Refusal text={refusals.groups.chargeInFlat} field="chargeInFlat" />

          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <SwitchedLimit
                group="reversePower"
                field="marginKw"
                on={reverseOn}
                refusal={refusals.groups.reversePower}
              />
            </Col>
            <Col xs={24} sm={12}>
              <SwitchedLimit
                group="demandControl"
                field="limitKw"
                on={demandOn}
                refusal={refusals.groups.demandControl}
              />
            </Col>
          </Row>

          {info.data && info.data.versions.length ? (
            <>
              <Divider titlePlacement="start">{t('ems.template.versions')}</Divider>
              <ul className="ems-versions" data-testid="template-versions">
                {info.data.versions.map((v) => (
                  <li key={v.version}>
                    {t('ems.template.versionLine', {
                      version: v.version,
                      from: formatDateTime(v.validFrom),
                      by: v.createdBy,
                    })}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </Form>
      )}
    </Drawer>
  );
}
