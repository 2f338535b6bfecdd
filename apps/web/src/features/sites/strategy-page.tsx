// /ems/strategy: what the station's module runs and what it was sent; choosing a strategy, its parameters and
// a price template and sending them (a risky operation: confirmation and password); the company's price
// templates with their versions and the editor; and a demand-response event.
import { useState } from 'react';
import { App as AntApp, Button, Card, Col, DatePicker, Form, InputNumber, Row, Select, Space, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EMS_STRATEGIES, type EmsStrategy, type TemplateListItem } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { formatDateTime, localUnit } from '../../components/format.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useDemandResponse, useTemplateList } from './api.ts';
import { SendTacticDialog, type TacticDraft } from './send-tactic-dialog.tsx';
import { StationPage } from './station-page.tsx';
import { TacticCard } from './tactic-card.tsx';
import { TEMPLATE_PAGE, TemplatesCard } from './templates-card.tsx';
import type { Station } from './use-station.ts';
import './sites.css';

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
      <Form<SendValues>
        form={form}
        className="ems-form"
        layout="vertical"
        initialValues={initial}
        onFinish={prepare}
        requiredMark={false}
      >
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
        <Button
          type="primary"
          danger
          className="ems-danger-strong"
          icon={<SendOutlined />}
          htmlType="submit"
          data-testid="send-tactic-button"
        >
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
        className="ems-form"
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
        <TemplatesCard
          canManage={canManage}
          currency={station.info!.site.currency}
          usedHere={station.info!.tactic.templateId ?? station.info!.fields.templateId}
          station={station.info!.fields}
        />
      </Col>
    </Row>
  );
}

export function StrategyPage() {
  return <StationPage>{(station) => <Strategy station={station} />}</StationPage>;
}
