// The station form (site:manage): name, address, time zone, currency, battery capacity, PCS rating,
// transformer, build date, its cloud module and which of that module's sets play which role (one PCS, one
// BMS, one grid meter, any PV inverters), and the price template its tactics use. The server checks it all;
// its refusals appear beside the fields, or above them when they concern no single field. Editing a station, the
// department it belongs to too (saved after its fields; cleared, its owner's counts).
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App as AntApp,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Spin,
  Typography,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  Permission,
  SITE_ADDRESS_MAX,
  SITE_CURRENCIES,
  SITE_DEFAULT_CURRENCY,
  SITE_DEVICE_ROLES,
  SITE_DEVICES_MAX,
  SITE_NAME_MAX,
  type SiteAddRequest,
  type SiteDeviceRole,
} from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { localUnit } from '../../components/format.ts';
import { useAuthorized } from '../../components/use-authorized.ts';
import { useGensetList } from '../gensets/api.ts';
import { useAddSite, useEditSite, useSiteDevices, useSiteInfo, useTemplateList } from './api.ts';
import { DepartmentSelect, useSetDepartment } from '../gensets/department-select.tsx';
import './sites.css';

interface DeviceValue {
  token?: string;
  role?: SiteDeviceRole;
}

export interface SiteFormValues {
  name: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
  timeZone: string;
  currency: string;
  capacityKwh: number | null;
  ratingKw: number | null;
  transformerKw: number | null;
  buildDate: Dayjs | null;
  modemId: string | null;
  templateId: number | null;
  devices: DeviceValue[];
  /** Editing: the station's own department (null: its owner's counts). */
  departmentId?: number | null;
}

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [browserZone()];
  }
}

/** What the form sends: empty texts and numbers as null, the build date as YYYY-MM-DD, bound sets only. */
export function toRequest(values: SiteFormValues): SiteAddRequest {
  return {
    name: values.name,
    address: values.address || null,
    lat: values.lat ?? null,
    lon: values.lon ?? null,
    timeZone: values.timeZone,
    currency: values.currency as SiteAddRequest['currency'],
    // a missing figure is sent as null, so the server names it as required
    capacityKwh: values.capacityKwh as number,
    ratingKw: values.ratingKw as number,
    transformerKw: values.transformerKw ?? null,
    buildDate: values.buildDate ? values.buildDate.format('YYYY-MM-DD') : null,
    modemId: values.modemId || null,
    templateId: values.templateId ?? null,
    devices: (values.devices ?? [])
      .filter((d): d is Required<DeviceValue> => Boolean(d.token && d.role))
      .map((d) => ({ token: d.token, role: d.role })),
  };
}

const EMPTY: SiteFormValues = {
  name: '',
  address: null,
  lat: null,
  lon: null,
  timeZone: browserZone(),
  currency: SITE_DEFAULT_CURRENCY,
  capacityKwh: null,
  ratingKw: null,
  transformerKw: null,
  buildDate: null,
  modemId: null,
  templateId: null,
  devices: [
    { token: undefined, role: 'pcs' },
    { token: undefined, role: 'bms' },
    { token: undefined, role: 'meter' },
  ],
};

/** The sets one may bind, found by name or number; those already bound keep their names. */
function useSetOptions(search: string, known: { token: string; name: string }[]) {
  const allowed = useAuthorized();
  const scope = allowed([Permission.gensetManage]) ? 'list' : 'mylist';
  const sets = useGensetList(scope, { page: 1, size: 50, ...(search ? { search } : {}) });
  return useMemo(() => {
    const seen = new Set<string>();
    const options: { value: string; label: string; modemId: string | null }[] = [];
    for (const set of sets.data?.list ?? []) {
      seen.add(set.token);
      const number = set.number ? ` (${set.number})` : '';
      options.push({
        value: set.token,
        label: `${set.name}${number}${set.modemId ? ` · ${set.modemId}` : ''}`,
        modemId: set.modemId,
      });
    }
    for (const k of known) if (!seen.has(k.token)) options.push({ value: k.token, label: k.name, modemId: null });
    return { options, loading: sets.isFetching };
  }, [sets.data, sets.isFetching, known]);
}

/** The form's state and its submission: a new station (token null) or the one named, loaded when active. */
export function useSiteForm({ token, active, onDone }: { token: string | null; active: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<SiteFormValues>();
  const info = useSiteInfo(active && token ? token : '');
  const devices = useSiteDevices(active && token ? token : '');
  const templates = useTemplateList({ page: 1, size: 50 });
  const add = useAddSite();
  const edit = useEditSite();
  const move = useSetDepartment('site');
  const [search, setSearch] = useState('');
  const [general, setGeneral] = useState<string | null>(null);
  const known = useMemo(
    () => (devices.data?.list ?? []).map((d) => ({ token: d.token, name: d.name })),
    [devices.data],
  );
  const sets = useSetOptions(search, known);
  const loading = token !== null && (!info.data || !devices.data);

  const initial = useMemo<SiteFormValues | null>(() => {
    if (token === null) return EMPTY;
    if (!info.data) return null;
    const f = info.data.fields;
    return {
      name: f.name,
      address: f.address,
      lat: f.lat,
      lon: f.lon,
      timeZone: f.timeZone,
      currency: f.currency,
      capacityKwh: f.capacityKwh,
      ratingKw: f.ratingKw,
      transformerKw: f.transformerKw,
      buildDate: f.buildDate ? dayjs(f.buildDate) : null,
      modemId: f.modemId,
      templateId: f.templateId,
      devices: f.devices.map((d) => ({ token: d.token, role: d.role })),
      departmentId: f.departmentId ?? null,
    };
  }, [token, info.data]);

  useEffect(() => {
    if (!active || !initial) return;
    form.setFieldsValue(initial);
  }, [active, initial, form]);

  const reset = () => {
    form.resetFields();
    setGeneral(null);
    setSearch('');
  };

  async function submit(values: SiteFormValues) {
    setGeneral(null);
    try {
      const body = toRequest(values);
      if (token) {
        await edit.mutateAsync({ token, ...body });
        const departmentId = values.departmentId ?? null;
        if (departmentId !== (info.data?.fields.departmentId ?? null))
          await move.mutateAsync({ tokens: [token], departmentId });
      } else await add.mutateAsync(body);
      void message.success(
        token ? t('sites.form.saved', { name: values.name }) : t('sites.form.added', { name: values.name }),
      );
      reset();
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
      if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0) setGeneral((error as Error).message);
    }
  }

  return {
    form,
    initial,
    loading,
    saving: add.isPending || edit.isPending || move.isPending,
    /** Editing: the department the station belongs to now (its own or its owner's). */
    department: token === null ? undefined : (info.data?.fields.departmentName ?? null),
    general,
    templates: templates.data?.list ?? [],
    sets,
    setSearch,
    submit,
    reset,
  };
}

export type SiteFormState = ReturnType<typeof useSiteForm>;

export function SiteFormBody({ state }: { state: SiteFormState }) {
  const { t } = useTranslation();
  const { form, initial, general, templates, sets, setSearch, submit } = state;
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);
  if (state.loading) return <Spin />;
  return (
    <Form<SiteFormValues>
      form={form}
      className="ems-form"
      layout="vertical"
      initialValues={initial ?? EMPTY}
      onFinish={(values) => void submit(values)}
      requiredMark={false}
    >
      {general ? <Alert type="error" showIcon title={general} style={{ marginBottom: 16 }} role="alert" /> : null}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t('sites.form.name')}>
            <Input maxLength={SITE_NAME_MAX} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="address" label={t('sites.form.address')}>
            <Input maxLength={SITE_ADDRESS_MAX} />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item name="timeZone" label={t('sites.form.timeZone')}>
            <Select showSearch options={zones} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="currency" label={t('sites.form.currency')}>
            <Select
              options={SITE_CURRENCIES.map((c) => ({
                value: c,
                label: c === 'CNY' ? `CNY · ${t('ems.units.yuan')}` : c,
              }))}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="buildDate" label={t('sites.form.buildDate')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="capacityKwh" label={`${t('sites.form.capacity')} (${localUnit('kWh')})`}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="ratingKw" label={`${t('sites.form.rating')} (${localUnit('kW')})`}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="transformerKw" label={`${t('sites.form.transformer')} (${localUnit('kW')})`}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="lat" label={t('sites.form.lat')}>
            <InputNumber min={-90} max={90} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="lon" label={t('sites.form.lon')}>
            <InputNumber min={-180} max={180} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="templateId" label={t('sites.form.template')}>
            <Select<number>
              allowClear
              placeholder={t('sites.form.noTemplate')}
              options={templates.map((tp) => ({ value: tp.id, label: tp.name }))}
            />
          </Form.Item>
        </Col>
      </Row>
      {state.department !== undefined ? (
        <Form.Item name="departmentId" label={t('gensets.department.label')} extra={t('gensets.department.hint')}>
          <DepartmentSelect current={state.department} />
        </Form.Item>
      ) : null}
      <Form.Item name="modemId" label={t('sites.form.modem')} extra={t('sites.form.modemHelp')}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.List name="devices">
        {(fields, { add: addRow, remove }, meta) => (
          <div data-testid="site-devices">
            <Typography.Text className="ems-devices-label">{t('sites.form.devices')}</Typography.Text>
            {fields.map((field, index) => (
              <div key={field.key} className="ems-range-row" data-testid="site-device-row">
                <Form.Item name={[field.name, 'role']} className="site-device-role">
                  <Select<SiteDeviceRole>
                    aria-label={t('sites.form.roleOf', { n: index + 1 })}
                    options={SITE_DEVICE_ROLES.map((r) => ({ value: r, label: t(`ems.roles.${r}`) }))}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'token']} className="site-device-set">
                  <Select<string>
                    showSearch={{ filterOption: false, onSearch: setSearch }}
                    allowClear
                    placeholder={t('sites.form.chooseSet')}
                    aria-label={t('sites.form.setOf', { n: index + 1 })}
                    options={sets.options}
                    loading={sets.loading}
                    notFoundContent={sets.loading ? <Spin size="small" /> : t('sites.form.noSets')}
                    onChange={(value) => {
                      const modem = sets.options.find((o) => o.value === value)?.modemId;
                      if (modem && !form.getFieldValue('modemId')) form.setFieldValue('modemId', modem);
                    }}
                  />
                </Form.Item>
                <Button
                  className="site-device-remove"
                  icon={<DeleteOutlined />}
                  aria-label={t('sites.form.removeDevice', { n: index + 1 })}
                  onClick={() => remove(field.name)}
                />
              </div>
            ))}
            <Button
              icon={<PlusOutlined />}
              onClick={() => addRow({ token: undefined, role: 'pv' })}
              disabled={fields.length >= SITE_DEVICES_MAX}
            >
              {t('sites.form.addDevice')}
            </Button>
            {meta.errors.map((error, index) => (
              <Typography.Text
                key={index}
                type="danger"
                role="alert"
                style={{ display: 'block', marginTop: 4 }}
                data-testid="refusal-devices"
              >
                {error}
              </Typography.Text>
            ))}
          </div>
        )}
      </Form.List>
    </Form>
  );
}
