// The company's price templates: each with its newest version, when it is in force, how many stations use it
// and who changed it last; a row opens to its day of periods and its figures. Those who manage stations add
// templates, save new versions (the editor) and delete templates no station uses.
import { useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Descriptions, Grid, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PRICE_PERIODS, SITE_DEFAULT_CURRENCY, type TemplateListItem } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime, localUnit } from '../../components/format.ts';
import { ToneTag } from '../../components/tone-tag.tsx';
import { useDeleteTemplate, useTemplateList } from './api.ts';
import { PeriodBar } from './period-bar.tsx';
import { PERIOD_HEX } from './periods.ts';
import { currencyUnit, formatMoneyNumber } from './site-format.ts';
import { TemplateEditor } from './template-editor.tsx';
import './sites.css';

/** Templates shown at once; a company keeps a handful. */
export const TEMPLATE_PAGE = { page: 1, size: 50 } as const;

function TemplateSummary({ template, currency }: { template: TemplateListItem; currency: string }) {
  const { t } = useTranslation();
  const body = template.body;
  const money = currencyUnit(currency);
  return (
    // no width of its own: it takes the table's, which its columns set
    <div style={{ padding: '4px 0', width: 0, minWidth: '100%' }} data-testid="template-summary">
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

export function TemplatesCard({
  canManage,
  currency = SITE_DEFAULT_CURRENCY,
  usedHere = null,
  station,
}: {
  canManage: boolean;
  /** Prices are read in this currency (the station's; the yuan by default). */
  currency?: string;
  /** The template the station shown uses, marked in the list. */
  usedHere?: number | null;
  /** A new template starts from the station's PCS rating and transformer. */
  station?: { ratingKw: number; transformerKw: number | null };
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const screens = Grid.useBreakpoint();
  const list = useTemplateList(TEMPLATE_PAGE);
  const remove = useDeleteTemplate();
  // undefined: closed; null: a new template; a number: a new version of that template
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const ratingKw = station?.ratingKw;
  const transformerKw = station?.transformerKw ?? null;
  const stationFigures = useMemo(
    () => (ratingKw === undefined ? undefined : { ratingKw, transformerKw }),
    [ratingKw, transformerKw],
  );

  const columns: ColumnsType<TemplateListItem> = [
    {
      key: 'name',
      title: t('ems.template.name'),
      render: (_, tp) => (
        <div>
          <Space size={4} wrap>
            <Typography.Text strong>{tp.name}</Typography.Text>
            {tp.id === usedHere ? <ToneTag tone="green">{t('ems.templates.usedHere')}</ToneTag> : null}
          </Space>
          <div className="ems-muted">
            {tp.updatedBy
              ? t('ems.templates.updatedBy', { time: formatDateTime(tp.updatedAt), by: tp.updatedBy })
              : formatDateTime(tp.updatedAt)}
          </div>
        </div>
      ),
    },
    {
      key: 'version',
      title: t('ems.templates.version'),
      render: (_, tp) => (
        <div>
          <span data-testid="template-version">{t('ems.tactic.version', { version: tp.version })}</span>
          <div className="ems-muted">{t('ems.templates.from', { time: formatDateTime(tp.validFrom) })}</div>
        </div>
      ),
    },
    { key: 'stations', title: t('ems.templates.stations'), dataIndex: 'stations', align: 'right' },
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
          // on a phone the columns keep their width and the table scrolls; wider, the cells wrap to fit
          scroll={screens.sm ? undefined : { x: 'max-content' }}
          expandable={{
            expandedRowRender: (tp) => <TemplateSummary template={tp} currency={currency} />,
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
