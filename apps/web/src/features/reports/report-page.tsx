// /crewmanage/report/{token}: the report of one set. Choose the type and the period, fill the form from the set's
// data, edit it, save it (each save is a new version), look at earlier versions, print it, export the saved
// version as PDF or XLSX. The weather fills the header (and can be synced).
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App as AntApp, Button, Card, DatePicker, Form, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import {
  CloudSyncOutlined,
  FilePdfOutlined,
  FileExcelOutlined,
  HistoryOutlined,
  PrinterOutlined,
  SaveOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MAX_REPORT_DAYS, type ReportForm, type ReportType } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { formatDateTime } from '../../components/format.ts';
import { useSettings } from '../../stores/settings.ts';
import { exportReport, fetchWeather, prefillReport, useReportInfo, useReportOne, useSaveReport } from './api.ts';
import { completeForm, formPath } from './fields.ts';
import { lastMonth, openingPeriod, type Period } from './period.ts';
import { PrintView } from './print-view.tsx';
import { ReportHeaderFields, ReportRows } from './report-form.tsx';
import { VersionsDrawer } from './versions-drawer.tsx';
import './reports.css';

function readType(value: string | null): ReportType {
  return value === '2' ? 2 : 1;
}

export function ReportPage() {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const { token = '' } = useParams();
  const [query, setQuery] = useSearchParams();
  const asked = readType(query.get('type'));
  const versionParam = Number(query.get('version'));
  const version = Number.isInteger(versionParam) && versionParam > 0 ? versionParam : undefined;
  const mobile = useSettings((s) => s.device) === 'mobile';
  const [form] = Form.useForm<ReportForm>();
  const [period, setPeriod] = useState<Period>(lastMonth);
  const [dirty, setDirty] = useState(false);
  const [prefilled, setPrefilled] = useState<Period | null>(null);
  const [busy, setBusy] = useState<'prefill' | 'weather' | 'pdf' | 'xlsx' | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [printing, setPrinting] = useState<ReportForm | null>(null);
  const one = useReportOne(token);
  // only the kinds of report that fit the set are offered; an address naming another opens the first that fits
  const types = one.data?.types ?? [asked];
  const type = types.includes(asked) ? asked : (types[0] ?? asked);
  // Read once the page (and so its form) is shown: values given to a form not yet shown would be lost.
  const info = useReportInfo(token, type, version, one.isSuccess);
  const save = useSaveReport(token);
  const autoFilled = useRef(new Set<string>());

  const setParams = useCallback(
    (change: { type?: ReportType; version?: number | undefined }) => {
      const next = new URLSearchParams(query);
      if (change.type !== undefined) next.set('type', String(change.type));
      if ('version' in change) {
        if (change.version === undefined) next.delete('version');
        else next.set('version', String(change.version));
      }
      setQuery(next, { replace: true });
    },
    [query, setQuery],
  );

  const fill = useCallback(
    async (which: Period) => {
      setPeriod(which);
      setBusy('prefill');
      try {
        const result = await prefillReport(type, { token, from: which[0], to: which[1] });
        form.resetFields();
        form.setFieldsValue(result.form as ReportForm);
        setPrefilled(which);
        setDirty(true);
        if (result.weatherError) void message.warning(result.weatherError);
      } catch {
        // the request layer has shown why
      } finally {
        setBusy(null);
      }
    },
    [form, message, token, type, setDirty, setPeriod, setBusy, setPrefilled],
  );

  // A saved version goes into the form as it is; a set without one is filled from last month's data once.
  // Only a newly read answer replaces what the form shows.
  const report = info.data?.report ?? null;
  const [shownAnswer, setShownAnswer] = useState(info.data);
  if (info.data !== shownAnswer) {
    setShownAnswer(info.data);
    if (report) {
      setPeriod([report.from, report.to]);
      setPrefilled(null);
      setDirty(false);
    }
  }
  useEffect(() => {
    if (!info.data) return;
    if (report) {
      form.resetFields();
      form.setFieldsValue(report.form as ReportForm);
    } else if (version === undefined && !autoFilled.current.has(`${token}:${type}`)) {
      autoFilled.current.add(`${token}:${type}`);
      void fill(openingPeriod(one.data?.dataFrom ?? null));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info.data]);

  const latest = info.data?.versions[0]?.version ?? null;
  const setName = one.data?.name ?? '';

  function confirmPrefill() {
    const run = () => void fill(period);
    if (!dirty && !report) return run();
    modal.confirm({
      title: t('reports.prefillConfirm.title'),
      content: t('reports.prefillConfirm.content'),
      okText: t('common.actions.confirm'),
      cancelText: t('common.actions.cancel'),
      onOk: run,
    });
  }

  async function onSave() {
    let values: ReportForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields say what is wrong
    }
    try {
      const saved = await save.mutateAsync({
        token,
        type,
        from: period[0],
        to: period[1],
        form: completeForm(type, { ...form.getFieldsValue(true), ...values }),
      });
      void message.success(t('reports.state.saved', { version: saved.version }));
      setDirty(false);
      setParams({ version: undefined });
      await info.refetch();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length) {
        form.setFields(Object.entries(e.fields).map(([path, text]) => ({ name: formPath(path), errors: [text] })));
      }
    }
  }

  async function syncWeather() {
    setBusy('weather');
    try {
      const w = await fetchWeather(token, true);
      if (w.state === 'ok' && w.celsius !== null) {
        form.setFieldsValue({
          one3: w.celsius,
          one4: w.pressure === null ? null : Math.round(w.pressure),
          two1: w.humidity === null ? null : Math.round(w.humidity),
        });
        setDirty(true);
        void message.success(t('reports.weather.synced'));
      } else void message.info(t(`reports.weather.states.${w.state === 'ok' ? 'notConfigured' : w.state}`));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  }

  async function download(format: 'pdf' | 'xlsx') {
    setBusy(format);
    try {
      await exportReport({ token, type, format, ...(report ? { version: report.version } : {}) });
    } catch {
      // the download has shown why
    } finally {
      setBusy(null);
    }
  }

  function print() {
    setPrinting(completeForm(type, form.getFieldsValue(true)));
    // After the print view has rendered with the current values.
    setTimeout(() => window.print(), 50);
  }

  if (one.isError) return <ErrorState error={one.error} onRetry={() => void one.refetch()} />;
  if (one.isPending) return <FullPageLoading />;

  const statusLine = report
    ? t('reports.state.version', {
        version: report.version,
        time: formatDateTime(report.createdAt),
        author: report.author,
      })
    : prefilled
      ? t('reports.state.prefilled', { from: prefilled[0], to: prefilled[1] })
      : t('reports.state.notSaved');
  const canExport = Boolean(report) && !dirty;
  const printLines = [t('reports.versions.period', { from: period[0], to: period[1] }), statusLine];

  return (
    <Card
      className="report-card"
      title={<h1 className="report-title">{t('reports.titleOf', { name: setName })}</h1>}
      data-testid="report-page"
    >
      <div className="report-controls">
        {types.length > 1 ? (
          <Segmented<ReportType>
            value={type}
            onChange={(next) => {
              setDirty(false);
              setParams({ type: next, version: undefined });
            }}
            options={types.map((value) => ({ value, label: t(`reports.types.${value}`) }))}
            aria-label={t('reports.typeLabel')}
            data-testid="report-type"
            block={mobile}
          />
        ) : (
          <Typography.Text strong data-testid="report-type">
            {t(`reports.types.${type}`)}
          </Typography.Text>
        )}
        <DatePicker.RangePicker
          value={[dayjs(period[0]), dayjs(period[1])]}
          allowClear={false}
          aria-label={t('reports.period')}
          presets={[
            { label: t('reports.presets.lastMonth'), value: lastMonth().map((d) => dayjs(d)) as [Dayjs, Dayjs] },
            { label: t('reports.presets.thisMonth'), value: [dayjs().startOf('month'), dayjs()] },
            { label: t('reports.presets.lastWeek'), value: [dayjs().subtract(6, 'day'), dayjs()] },
          ]}
          disabledDate={(day, pick) => {
            const from = pick.from;
            return Boolean(from && Math.abs(day.diff(from, 'day')) >= MAX_REPORT_DAYS);
          }}
          onChange={(days) => {
            if (days?.[0] && days[1]) setPeriod([days[0].format('YYYY-MM-DD'), days[1].format('YYYY-MM-DD')]);
          }}
          data-testid="report-period"
        />
        <Button
          icon={<ThunderboltOutlined />}
          loading={busy === 'prefill'}
          onClick={confirmPrefill}
          data-testid="report-prefill"
        >
          {t('reports.actions.prefill')}
        </Button>
      </div>

      <Space wrap size={8} className="report-state">
        <Typography.Text type="secondary" data-testid="report-state">
          {statusLine}
        </Typography.Text>
        {dirty ? <Tag color="orange">{t('reports.state.dirty')}</Tag> : null}
        <Typography.Text type="secondary">{t('reports.timeZone', { zone: one.data.timeZone })}</Typography.Text>
      </Space>
      {version !== undefined && latest !== null && version !== latest ? (
        <Alert
          type="info"
          showIcon
          className="report-older"
          message={t('reports.state.older', { version, latest })}
          action={
            <Button size="small" onClick={() => setParams({ version: undefined })}>
              {t('reports.actions.latest')}
            </Button>
          }
        />
      ) : null}

      {info.isError && !info.data ? (
        <ErrorState error={info.error} onRetry={() => void info.refetch()} />
      ) : (
        <Form<ReportForm>
          form={form}
          layout="vertical"
          onValuesChange={() => setDirty(true)}
          disabled={busy === 'prefill'}
          className="report-form"
          data-testid="report-form"
        >
          <div className="report-section-head">
            <Typography.Title level={2} className="report-section">
              {t('reports.header')}
            </Typography.Title>
            <Button
              size="small"
              icon={<CloudSyncOutlined />}
              loading={busy === 'weather'}
              onClick={() => void syncWeather()}
              data-testid="report-weather-sync"
            >
              {t('reports.weather.sync')}
            </Button>
          </div>
          <ReportHeaderFields />
          <Typography.Title level={2} className="report-section">
            {t('reports.rows')}
          </Typography.Title>
          <ReportRows type={type} mobile={mobile} />
        </Form>
      )}

      <div className={mobile ? 'report-actions report-actions-mobile' : 'report-actions'}>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          loading={save.isPending}
          onClick={() => void onSave()}
          data-testid="report-save"
        >
          {t('reports.actions.save')}
        </Button>
        <Button icon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)} data-testid="report-versions-open">
          {t('reports.actions.versions')}
          {latest ? ` (${latest})` : ''}
        </Button>
        <Button icon={<PrinterOutlined />} onClick={print} data-testid="report-print">
          {t('reports.actions.print')}
        </Button>
        <Tooltip title={canExport ? undefined : t('reports.state.exportHint')}>
          <Space.Compact>
            <Button
              icon={<FilePdfOutlined />}
              disabled={!canExport}
              loading={busy === 'pdf'}
              onClick={() => void download('pdf')}
              data-testid="report-export-pdf"
            >
              {t('reports.actions.exportPdf')}
            </Button>
            <Button
              icon={<FileExcelOutlined />}
              disabled={!canExport}
              loading={busy === 'xlsx'}
              onClick={() => void download('xlsx')}
              data-testid="report-export-xlsx"
            >
              {t('reports.actions.exportXlsx')}
            </Button>
          </Space.Compact>
        </Tooltip>
      </div>

      <VersionsDrawer
        open={versionsOpen}
        onClose={() => setVersionsOpen(false)}
        versions={info.data?.versions ?? []}
        shown={report?.version ?? null}
        onOpen={(v) => {
          setVersionsOpen(false);
          setParams({ version: v === latest ? undefined : v });
        }}
      />
      {printing ? <PrintView type={type} form={printing} setName={setName} lines={printLines} /> : null}
    </Card>
  );
}
