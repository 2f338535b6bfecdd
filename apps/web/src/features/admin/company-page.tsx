// /system/company (the platform administrator): every company with its host names, contact, currency and time
// zone; add and edit in a drawer (host names as tags, logo upload with preview, contact, map key, currency, time
// zone); delete after confirmation (refused by the server while the company owns sets).
import { useMemo, useState } from 'react';
import {
  App as AntApp,
  AutoComplete,
  Avatar,
  Button,
  Card,
  Drawer,
  Form,
  Grid,
  Input,
  Popconfirm,
  Select,
  Space,
  Tag,
  Upload,
  type TableColumnsType,
} from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOGO_BYTES_MAX, type CompanyAddRequest, type CompanyItem } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { PagedTable } from '../../components/paged-table.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { usePaging } from '../../components/use-paging.ts';
import { uploadLogo, useCompanies, useDeleteCompany, useSaveCompany } from './company-api.ts';

const CURRENCIES = ['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'HKD', 'TWD', 'RUB', 'TRY', 'INR', 'AUD', 'BRL', 'MXN'];

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}

type CompanyValues = Omit<CompanyAddRequest, 'logo'> & { logo: string | null };

function CompanyDrawer({
  company,
  open,
  onClose,
}: {
  company: CompanyItem | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useFormRules();
  const [form] = Form.useForm<CompanyValues>();
  const save = useSaveCompany();
  const [uploading, setUploading] = useState(false);
  const logo = Form.useWatch('logo', form);
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);
  const screens = Grid.useBreakpoint();
  const initial: CompanyValues = company
    ? {
        name: company.name,
        title: company.title,
        contactPerson: company.contactPerson,
        contactPhone: company.contactPhone,
        contactEmail: company.contactEmail,
        hosts: company.hosts,
        logo: company.logo,
        mapKey: company.mapKey,
        currency: company.currency,
        timeZone: company.timeZone,
      }
    : {
        name: '',
        title: '',
        contactPerson: '',
        contactPhone: '',
        contactEmail: '',
        hosts: [],
        logo: null,
        mapKey: '',
        currency: 'CNY',
        timeZone: 'Asia/Shanghai',
      };

  async function submit() {
    let values: CompanyValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save.mutateAsync(company ? { ...values, id: company.id } : values);
      void message.success(t(company ? 'common.saved' : 'admin.company.added'));
      onClose();
    } catch (error) {
      applyServerErrors(form, error);
      // a refusal that names no field (a host another company has) is shown beside the host names
      if (error instanceof ApiError && Object.keys(error.fields).length === 0) {
        if (error.code === 409) form.setFields([{ name: 'hosts', errors: [error.message] }]);
        else void message.error(error.message);
      }
    }
  }

  async function pick(file: File) {
    if (file.size > LOGO_BYTES_MAX) {
      form.setFields([{ name: 'logo', errors: [t('admin.company.logoTooLarge')] }]);
      return;
    }
    setUploading(true);
    try {
      const { logo: address } = await uploadLogo(file);
      form.setFieldValue('logo', address);
      form.setFields([{ name: 'logo', errors: [] }]);
    } catch (error) {
      form.setFields([
        { name: 'logo', errors: [error instanceof Error ? error.message : t('admin.company.logoFailed')] },
      ]);
    } finally {
      setUploading(false);
    }
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      destroyOnHidden
      size={screens.sm ? 520 : '100%'}
      title={t(company ? 'admin.company.edit' : 'admin.company.add')}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="company-save">
            {t('common.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form<CompanyValues> form={form} layout="vertical" requiredMark={false} name="company" initialValues={initial}>
        <Form.Item name="name" label={t('admin.company.name')} rules={rules.required}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="title" label={t('admin.company.title')} extra={t('admin.company.titleHint')}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="hosts" label={t('admin.company.hosts')} extra={t('admin.company.hostsHint')}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} aria-label={t('admin.company.hosts')} />
        </Form.Item>
        <Form.Item name="logo" label={t('admin.company.logo')} extra={t('admin.company.logoHint')}>
          <Space align="center">
            {logo ? <Avatar shape="square" size={56} src={logo} alt={t('admin.company.logo')} /> : null}
            <Upload
              accept="image/png,image/jpeg,image/svg+xml"
              showUploadList={false}
              beforeUpload={(file) => {
                void pick(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={uploading}>
                {t('admin.company.upload')}
              </Button>
            </Upload>
            {logo ? (
              <Button onClick={() => form.setFieldValue('logo', null)}>{t('admin.company.removeLogo')}</Button>
            ) : null}
          </Space>
        </Form.Item>
        <Form.Item name="contactPerson" label={t('admin.company.contactPerson')}>
          <Input maxLength={80} />
        </Form.Item>
        <Form.Item name="contactPhone" label={t('admin.company.contactPhone')}>
          <Input maxLength={40} inputMode="tel" />
        </Form.Item>
        <Form.Item name="contactEmail" label={t('admin.company.contactEmail')}>
          <Input maxLength={254} inputMode="email" />
        </Form.Item>
        <Form.Item name="mapKey" label={t('admin.company.mapKey')}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="currency" label={t('admin.company.currency')} rules={rules.required}>
          <AutoComplete options={CURRENCIES.map((c) => ({ value: c }))} maxLength={3} />
        </Form.Item>
        <Form.Item name="timeZone" label={t('admin.company.timeZone')} rules={rules.required}>
          <Select showSearch options={zones} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

export function CompanyPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const screens = Grid.useBreakpoint();
  const paging = usePaging();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<CompanyItem | null>(null);
  const [open, setOpen] = useState(false);
  const query = useCompanies({ page: paging.page, size: paging.size, search });
  const remove = useDeleteCompany();

  const columns: TableColumnsType<CompanyItem> = [
    {
      title: t('admin.company.name'),
      dataIndex: 'name',
      render: (_v, c) => (
        <Space>
          {c.logo ? <Avatar shape="square" size="small" src={c.logo} alt="" /> : null}
          <span>{c.name}</span>
        </Space>
      ),
    },
    {
      title: t('admin.company.hosts'),
      dataIndex: 'hosts',
      responsive: ['md'],
      render: (hosts: string[]) => hosts.map((h) => <Tag key={h}>{h}</Tag>),
    },
    {
      title: t('admin.company.contact'),
      key: 'contact',
      responsive: ['lg'],
      render: (_v, c) => [c.contactPerson, c.contactPhone, c.contactEmail].filter(Boolean).join(' · '),
    },
    { title: t('admin.company.currency'), dataIndex: 'currency', responsive: ['lg'] },
    { title: t('admin.company.timeZone'), dataIndex: 'timeZone', responsive: ['xl'] },
    { title: t('admin.company.sets'), dataIndex: 'sets', responsive: ['md'] },
    { title: t('admin.company.users'), dataIndex: 'users', responsive: ['md'] },
    {
      title: t('admin.actions'),
      key: 'actions',
      render: (_v, c) => (
        <Space wrap>
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => {
              setEditing(c);
              setOpen(true);
            }}
          >
            {t('admin.edit')}
          </Button>
          <Popconfirm
            title={t('admin.company.deleteConfirm', { name: c.name })}
            okText={t('common.actions.confirm')}
            cancelText={t('common.actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={async () => {
              await remove.mutateAsync(c.id);
              void message.success(t('admin.company.deleted'));
            }}
          >
            <Button size="small" danger icon={<DeleteOutlined />} disabled={c.id === 1}>
              {t('admin.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          placeholder={t('admin.company.search')}
          aria-label={t('admin.company.search')}
          style={{ width: screens.md ? 280 : '100%' }}
          onSearch={(value) => {
            paging.setPage(1);
            setSearch(value.trim());
          }}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
        >
          {t('admin.company.add')}
        </Button>
      </Space>
      <PagedTable<CompanyItem>
        query={query}
        paging={paging}
        columns={columns}
        testId="companies-table"
        label={t('admin.company.list')}
      />
      <CompanyDrawer company={editing} open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
