// /ems/strategy: what the station's module runs and what it was sent; choosing a strategy, its parameters and
// a price template and sending them (a risky operation: confirmation and password); the company's price
// templates with their versions and the editor; and a demand-response event.
import { useMemo, useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Form,
  InputNumber,
  Popconfirm,
  Row,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EMS_STRATEGIES, PRICE_PERIODS, type EmsStrategy, type TemplateListItem } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime, localUnit } from '../../components/format.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { ToneTag } from '../../components/tone-tag.tsx';
import { useDeleteTemplate, useDemandResponse, useTemplateList } from './api.ts';
import { PeriodBar } from './period-bar.tsx';
import { PERIOD_HEX } from './periods.ts';
import { SendTacticDialog, type TacticDraft } from './send-tactic-dialog.tsx';
import { currencyUnit, formatMoneyNumber } from './site-format.ts';
import { StationPage } from './station-page.tsx';
import { TacticCard } from './tactic-card.tsx';
import { TemplateEditor } from './template-editor.tsx';
import type { Station } from './use-station.ts';
import './sites.css';

/** Templates offered at once; a company keeps a handful. */
const TEMPLATE_PAGE = { page: 1, size: 50 } as const;

interface SendValues {
  strategy: EmsStrategy;
  templateId: number;
  transformerKw?: number | null;
  rechargeHeadroomKw?: number | null;
}

function SendTacticCard({ station, templates }: { station: Station; templates: TemplateListItem[] }) {
  const { t } = useTranslation();
  const info = station.info!;
  const [form] = Form.useForm<SendValues>();
  const strategy = Form.useWatch('strategy', form);
  const [draft, setDraft] = useState<TacticDraft | null>(null);
  const initial: Partial<SendValues> = {
    strategy: info.tactic.strategy ?? 'timeOfUse',
    ...((info.tactic.templateId ?? info.fields.templateId)
      ? { templateId: (info.tactic.templateId ?? info.fields.templateId)! }
      : {}),
    transformerKw: info.fields.transformerKw,
  };

  const prepare = (values: SendValues) => {
    const template = templates.find((tp) => tp.id === values.templateId);
    setDraft({
      token: station.token,
      strategy: values.strategy,
      templateId: values.templateId,
      templateName: template ? `${template.name} · ${t('ems.tactic.version', { version: template.version })}` : '',
      params: {
        ...(values.strategy === 'capacityExpansion' && values.transformerKw != null
          ? { transformerKw: values.transformerKw }
          : {}),
        ...(values.strategy === 'peakShaving' && values.rechargeHeadroomKw != null
          ? { rechargeHeadroomKw: values.rechargeHeadroomKw }
          : {}),
      },
    });
  };

  return (
    <Card size="small" title={t('ems.send.title')} data-testid="send-tactic">
      <Form<SendValues> form={form} layout="vertical" initialValues={initial} onFinish={prepare} requiredMark={false}>
        <Form.Item
          name="strategy"
          label={t('ems.tactic.strategy')}
          extra={strategy ? t(`ems.strategyHelp.${strategy}`) : null}
        >
          <Select<EmsStrategy>
            options={EMS_STRATEGIES.map((s) => ({ value: s, label: t(`ems.strategies.${s}`) }))}
            data-testid="send-strategy"
          />
        </Form.Item>
        <Form.Item
          name="templateId"
          label={t('ems.tactic.template')}
          rules={[{ required: true, message: t('ems.send.templateRequired') }]}
        >
          <Select<number>
            placeholder={t('ems.send.chooseTemplate')}
            options={templates.map((tp) => ({
              value: tp.id,
              label: `${tp.name} · ${t('ems.tactic.version', { version: tp.version })}`,
            }))}
            notFoundContent={<EmptyState description={t('ems.templates.empty')} />}
            data-testid="send-template"
          />
        </Form.Item>
        {strategy === 'capacityExpansion' ? (
          <Form.Item name="transformerKw" label={`${t('ems.send.transformer')} (${localUnit('kW')})`}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        {strategy === 'peakShaving' ? (
          <Form.Item
            name="rechargeHeadroomKw"
            label={`${t('ems.send.headroom')} (${localUnit('kW')})`}
            extra={t('ems.send.headroomHelp')}
          >
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : null}
        <Button type="primary" danger icon={<SendOutlined />} htmlType="submit" data-testid="send-tactic-button">
          {t('ems.send.button')}
        </Button>
      </Form>
      <SendTacticDialog draft={draft} stationName={info.site.name} onClose={() => setDraft(null)} />
    </Card>
  );
}

interface DemandValues {
  start: Dayjs | null;
  end: Dayjs | null;
  kw: number | null;
}

function DemandResponseCard({ station }: { station: Station }) {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const [form] = Form.useForm<DemandValues>();
  const send = useDemandResponse();

  const submit = (values: DemandValues) =>
    modal.confirm({
      title: t('ems.demand.confirmTitle'),
      content: t('ems.demand.confirm', {
        kw: values.kw ?? 0,
        start: values.start ? formatDateTime(values.start.valueOf()) : '',
        end: values.end ? formatDateTime(values.end.valueOf()) : '',
      }),
      okText: t('ems.demand.send'),
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          await send.mutateAsync({
            token: station.token,
            start: values.start?.valueOf() ?? 0,
            end: values.end?.valueOf() ?? 0,
            kw: values.kw ?? 0,
          });
          void message.success(t('ems.demand.sent'));
          form.resetFields();
        } catch (error) {
          applyServerErrors(form, error);
          if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0)
            void message.error((error as Error).message);
        }
      },
    });

  return (
    <Card size="small" title={t('ems.demand.title')} data-testid="demand-response">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('ems.demand.intro')}
      </Typography.Paragraph>
      <Form<DemandValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark={false}
        initialValues={{ start: null, end: null, kw: null }}
      >
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="start" label={t('ems.demand.start')}>
              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="end" label={t('ems.demand.end')}>
              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="kw" label={`${t('ems.demand.power')} (${localUnit('kW')})`} extra={t('ems.demand.powerHelp')}>
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
        <Button htmlType="submit" loading={send.isPending}>
          {t('ems.demand.send')}
        </Button>
      </Form>
    </Card>
  );
}

function TemplateSummary({ template, currency }: { template: TemplateListItem; currency: string }) {
  const { t } = useTranslation();
  const body = template.body;
  const money = currencyUnit(currency);
  return (
    <div style={{ padding: '4px 0' }}>
      <PeriodBar ranges={body.ranges} />
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginTop: 8 }}
        items={[
          ...PRICE_PERIODS.map((p) => ({
            key: p,
            label: (
              <span>
                <span className="ems-period-swatch" style={{ background: PERIOD_HEX[p] }} aria-hidden />
                {t(`ems.periods.${p}`)}
              </span>
            ),
            children: t('ems.templates.prices', {
              buy: formatMoneyNumber(body.prices[p].buy),
              sell: formatMoneyNumber(body.prices[p].sell),
              unit: money,
            }),
          })),
          {
            key: 'power',
            label: t('ems.template.power'),
            children: `${body.powerKw} ${localUnit('kW')}`,
          },
          {
            key: 'cutoffs',
            label: t('ems.templates.cutoffs'),
            children: t('ems.templates.cutoffsValue', {
              charge: body.chargeCutoffSoc,
              discharge: body.dischargeCutoffSoc,
              margin: body.socMargin,
            }),
          },
          {
            key: 'reverse',
            label: t('ems.template.reversePower'),
            children: body.reversePower.enabled
              ? `${body.reversePower.marginKw} ${localUnit('kW')}`
              : t('ems.templates.off'),
          },
          {
            key: 'demand',
            label: t('ems.template.demandControl'),
            children: body.demandControl.enabled
              ? `${body.demandControl.limitKw} ${localUnit('kW')}`
              : t('ems.templates.off'),
          },
        ]}
      />
    </div>
  );
}

function TemplatesCard({ station, canManage }: { station: Station; canManage: boolean }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const info = station.info!;
  const list = useTemplateList(TEMPLATE_PAGE);
  const remove = useDeleteTemplate();
  // undefined: closed; null: a new template; a number: a new version of that template
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const usedHere = info.tactic.templateId ?? info.fields.templateId;
  const stationFigures = useMemo(
    () => ({ ratingKw: info.fields.ratingKw, transformerKw: info.fields.transformerKw }),
    [info.fields.ratingKw, info.fields.transformerKw],
  );

  const columns: ColumnsType<TemplateListItem> = [
    {
      key: 'name',
      title: t('ems.template.name'),
      render: (_, tp) => (
        <Space size={4} wrap>
          <Typography.Text strong>{tp.name}</Typography.Text>
          {tp.id === usedHere ? <ToneTag tone="green">{t('ems.templates.usedHere')}</ToneTag> : null}
        </Space>
      ),
    },
    {
      key: 'version',
      title: t('ems.templates.version'),
      render: (_, tp) => <span data-testid="template-version">{t('ems.tactic.version', { version: tp.version })}</span>,
    },
    { key: 'validFrom', title: t('ems.template.validFrom'), render: (_, tp) => formatDateTime(tp.validFrom) },
    { key: 'stations', title: t('ems.templates.stations'), dataIndex: 'stations', align: 'right' },
    {
      key: 'updated',
      title: t('ems.templates.updated'),
      render: (_, tp) => (
        <span>
          {formatDateTime(tp.updatedAt)}
          <div className="ems-muted">{tp.updatedBy}</div>
        </span>
      ),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            title: t('ems.templates.actions'),
            render: (_: unknown, tp: TemplateListItem) => (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(tp.id)}
                  aria-label={t('ems.templates.editOf', { name: tp.name })}
                >
                  {t('ems.templates.edit')}
                </Button>
                <Popconfirm
                  title={t('ems.templates.deleteTitle', { name: tp.name })}
                  okText={t('ems.templates.delete')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.actions.cancel')}
                  disabled={tp.stations > 0}
                  onConfirm={async () => {
                    await remove.mutateAsync(tp.id);
                    void message.success(t('ems.templates.deleted', { name: tp.name }));
                  }}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={tp.stations > 0}
                    title={tp.stations > 0 ? t('ems.templates.inUse') : undefined}
                    aria-label={t('ems.templates.deleteOf', { name: tp.name })}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      size="small"
      title={<h2 className="ems-page-title">{t('ems.templates.title')}</h2>}
      extra={
        canManage ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="template-new">
            {t('ems.templates.new')}
          </Button>
        ) : null
      }
      data-testid="templates"
    >
      {list.isError && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<TemplateListItem>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending}
          pagination={false}
          scroll={{ x: 'max-content' }}
          expandable={{
            expandedRowRender: (tp) => <TemplateSummary template={tp} currency={info.site.currency} />,
            rowExpandable: () => true,
          }}
          locale={{ emptyText: <EmptyState description={t('ems.templates.empty')} /> }}
          data-testid="template-table"
        />
      )}
      <TemplateEditor
        open={editing !== undefined}
        templateId={editing ?? null}
        station={stationFigures}
        onClose={() => setEditing(undefined)}
      />
    </Card>
  );
}

function Strategy({ station }: { station: Station }) {
  const canManage = station.info!.canManage;
  const templates = useTemplateList(TEMPLATE_PAGE);
  return (
    <Row gutter={[16, 16]} data-testid="ems-strategy">
      <Col xs={24} xl={10}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <TacticCard station={station} />
          {canManage ? <SendTacticCard station={station} templates={templates.data?.list ?? []} /> : null}
          {canManage ? <DemandResponseCard station={station} /> : null}
        </Space>
      </Col>
      <Col xs={24} xl={14}>
        <TemplatesCard station={station} canManage={canManage} />
      </Col>
    </Row>
  );
}

export function StrategyPage() {
  return <StationPage>{(station) => <Strategy station={station} />}</StationPage>;
}
