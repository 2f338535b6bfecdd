// /genset/maintenance: the pending maintenance tasks over the sets the user sees (due and overdue ones first,
// or all), each leading to its set's maintain tab; and, for those who manage sets, the company's templates of
// items per set model, applied to the sets of a model or to chosen ones. A table on wide screens, a list of
// cards on phones.
import { useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Descriptions,
  Form,
  Grid,
  Input,
  InputNumber,
  List,
  Modal,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Typography,
  type TableColumnsType,
} from 'antd';
import { EditOutlined, MinusCircleOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Permission, type MaintFleetTask, type MaintTemplate, type MaintTemplateSaveRequest } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useAuthorized } from '../../components/use-authorized.ts';
import { usePaging } from '../../components/use-paging.ts';
import { NONE } from '../../components/format.ts';
import { useMySets } from '../monitor/api.ts';
import { useApplyTemplate, useDeleteTemplate, useFleetTasks, useSaveTemplate, useTemplates } from './api.ts';
import { DeleteButton, DueText, hoursText, StateTag } from './plan-view.tsx';
import './maintenance.css';

type Filter = 'due' | 'overdue' | 'all';

const maintainLink = (token: string) => `/top/maintain?token=${encodeURIComponent(token)}`;

function TaskList() {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const [filter, setFilter] = useState<Filter>('due');
  const { page, size, setPage, pagination, listPagination } = usePaging();
  const tasks = useFleetTasks(filter, page, size);
  const data = tasks.data;
  const filterBar = (
    <Segmented<Filter>
      value={filter}
      onChange={(value) => {
        setFilter(value);
        setPage(1);
      }}
      options={(['due', 'overdue', 'all'] as const).map((f) => ({ value: f, label: t(`maintenance.filter.${f}`) }))}
      data-testid="maint-filter"
    />
  );
  if (tasks.isError && !data) return <ErrorState error={tasks.error} onRetry={() => void tasks.refetch()} />;
  const empty = <EmptyState description={t(`maintenance.empty.tasks.${filter}`)} />;
  if (narrow)
    return (
      <Space direction="vertical" size={8} style={{ width: '100%' }}>
        {filterBar}
        <List<MaintFleetTask>
          className="maint-cards"
          loading={tasks.isPending}
          dataSource={data?.list ?? []}
          locale={{ emptyText: empty }}
          pagination={listPagination(data?.total)}
          renderItem={(task) => (
            <List.Item key={task.id} data-testid="maint-task">
              <Card size="small" className="maint-card">
                <Space size={8} wrap className="maint-card-head">
                  <strong>{task.name}</strong>
                  <StateTag state={task.state} />
                </Space>
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('maintenance.fields.set')}>
                    <Link to={maintainLink(task.token)}>{task.setName}</Link>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('maintenance.fields.nextDue')}>
                    <DueText date={task.dueDate} hours={task.dueHours} />
                  </Descriptions.Item>
                  <Descriptions.Item label={t('maintenance.fields.runHours')}>
                    {hoursText(task.runHours)}
                  </Descriptions.Item>
                </Descriptions>
              </Card>
            </List.Item>
          )}
        />
      </Space>
    );
  const columns: TableColumnsType<MaintFleetTask> = [
    {
      key: 'set',
      title: t('maintenance.fields.set'),
      render: (_, task) => <Link to={maintainLink(task.token)}>{task.setName}</Link>,
    },
    { key: 'name', title: t('maintenance.fields.name'), dataIndex: 'name' },
    {
      key: 'due',
      title: t('maintenance.fields.nextDue'),
      render: (_, task) => <DueText date={task.dueDate} hours={task.dueHours} />,
    },
    { key: 'hours', title: t('maintenance.fields.runHours'), render: (_, task) => hoursText(task.runHours) },
    { key: 'state', title: t('maintenance.fields.state'), render: (_, task) => <StateTag state={task.state} /> },
  ];
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }}>
      {filterBar}
      <Table<MaintFleetTask>
        rowKey="id"
        size="small"
        loading={tasks.isFetching && !data}
        columns={columns}
        dataSource={data?.list ?? []}
        locale={{ emptyText: empty }}
        pagination={pagination(data?.total ?? 0)}
        onRow={() => ({ 'data-testid': 'maint-task' }) as React.HTMLAttributes<HTMLElement>}
        scroll={{ x: 'max-content' }}
      />
    </Space>
  );
}

type TemplateForm = MaintTemplateSaveRequest;

function TemplateDialog({
  template,
  open,
  onClose,
}: {
  template: MaintTemplate | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<TemplateForm>();
  const save = useSaveTemplate();
  return (
    <FormDialog<TemplateForm>
      form={form}
      open={open}
      width={720}
      title={template ? t('maintenance.templates.editTitle') : t('maintenance.templates.addTitle')}
      saving={save.isPending}
      onClose={onClose}
      onSave={async (values) => {
        try {
          await save.mutateAsync({
            ...(template ? { id: template.id } : {}),
            name: values.name,
            model: values.model,
            items: (values.items ?? []).map((i) => ({
              name: i.name,
              cycleDays: i.cycleDays ?? null,
              cycleHours: i.cycleHours ?? null,
              remindDays: i.remindDays ?? 0,
              remindHours: i.remindHours ?? 0,
              replacedModel: i.replacedModel ?? '',
              remark: i.remark ?? '',
            })),
          });
          void message.success(t('maintenance.saved'));
          onClose();
        } catch (err) {
          // the items' refusals have no field of their own here: the message says them
          applyServerErrors(form, err);
          void message.error((err as Error).message);
        }
      }}
      initialValues={
        template
          ? { name: template.name, model: template.model, items: template.items }
          : { items: [{ name: '', remindDays: 0, remindHours: 0 }] }
      }
    >
      <Space size={12} wrap>
        <Form.Item
          name="name"
          label={t('maintenance.templates.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="model"
          label={t('maintenance.templates.model')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Space>
      <Form.List name="items">
        {(fields, { add, remove }) => (
          <Space direction="vertical" size={4} style={{ width: '100%' }}>
            {fields.map((field) => (
              <Space key={field.key} size={8} wrap align="start">
                <Form.Item
                  name={[field.name, 'name']}
                  label={t('maintenance.fields.name')}
                  rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
                >
                  <Input maxLength={100} />
                </Form.Item>
                <Form.Item name={[field.name, 'cycleDays']} label={t('maintenance.fields.cycleDays')}>
                  <InputNumber min={0} max={3650} precision={0} />
                </Form.Item>
                <Form.Item name={[field.name, 'cycleHours']} label={t('maintenance.fields.cycleHours')}>
                  <InputNumber min={0} max={100000} />
                </Form.Item>
                <Form.Item name={[field.name, 'remindDays']} label={t('maintenance.fields.remindDays')}>
                  <InputNumber min={0} max={3650} precision={0} />
                </Form.Item>
                <Button
                  type="text"
                  icon={<MinusCircleOutlined />}
                  aria-label={t('maintenance.actions.delete')}
                  disabled={fields.length < 2}
                  onClick={() => remove(field.name)}
                  style={{ marginTop: 30 }}
                />
              </Space>
            ))}
            <Button icon={<PlusOutlined />} onClick={() => add({ name: '', remindDays: 0, remindHours: 0 })}>
              {t('maintenance.templates.addItem')}
            </Button>
          </Space>
        )}
      </Form.List>
    </FormDialog>
  );
}

function ApplyDialog({ template, onClose }: { template: MaintTemplate | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const apply = useApplyTemplate();
  const [tokens, setTokens] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const sets = useMySets({ page: 1, size: 50, ...(search ? { search } : {}) }, template !== null);
  const run = async (all: boolean) => {
    if (!template) return;
    const result = await apply.mutateAsync({ id: template.id, all, tokens: all ? [] : tokens });
    void message.success(t('maintenance.templates.applied', result));
    setTokens([]);
    onClose();
  };
  return (
    <Modal
      open={template !== null}
      title={t('maintenance.templates.applyTitle', { name: template?.name ?? '' })}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.actions.cancel')}
        </Button>,
        <Button key="chosen" disabled={tokens.length === 0} loading={apply.isPending} onClick={() => void run(false)}>
          {t('maintenance.templates.applyChosen')}
        </Button>,
        <Button key="all" type="primary" loading={apply.isPending} onClick={() => void run(true)}>
          {t('maintenance.templates.applyAll', { count: template?.sets ?? 0, model: template?.model ?? '' })}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{t('maintenance.templates.applyExplain')}</Typography.Paragraph>
      <Select
        mode="multiple"
        value={tokens}
        onChange={setTokens}
        style={{ width: '100%' }}
        placeholder={t('maintenance.templates.tokens')}
        aria-label={t('maintenance.templates.tokens')}
        showSearch={{ filterOption: false, onSearch: (value) => setSearch(value.trim()) }}
        loading={sets.isFetching}
        options={(sets.data?.list ?? []).map((s) => ({ value: s.token, label: s.name }))}
      />
    </Modal>
  );
}

function Templates() {
  const { t } = useTranslation();
  const templates = useTemplates(true);
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<MaintTemplate | null>(null);
  const [adding, setAdding] = useState(false);
  const [applying, setApplying] = useState<MaintTemplate | null>(null);
  if (templates.isError) return <ErrorState error={templates.error} onRetry={() => void templates.refetch()} />;
  const columns: TableColumnsType<MaintTemplate> = [
    { key: 'name', title: t('maintenance.templates.name'), dataIndex: 'name' },
    { key: 'model', title: t('maintenance.templates.model'), dataIndex: 'model' },
    {
      key: 'items',
      title: t('maintenance.templates.items'),
      render: (_, tpl) => tpl.items.map((i) => i.name).join(', ') || NONE,
    },
    { key: 'sets', title: t('maintenance.templates.sets'), dataIndex: 'sets' },
    {
      key: 'actions',
      title: t('maintenance.fields.actions'),
      render: (_, tpl) => (
        <Space size={8} wrap>
          <Button size="small" type="primary" icon={<SendOutlined />} onClick={() => setApplying(tpl)}>
            {t('maintenance.templates.apply')}
          </Button>
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(tpl)}>
            {t('maintenance.actions.edit')}
          </Button>
          <DeleteButton name={tpl.name} onConfirm={() => remove.mutateAsync({ id: tpl.id })} />
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('maintenance.templates.explain')}</Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
        {t('maintenance.templates.add')}
      </Button>
      <Table<MaintTemplate>
        rowKey="id"
        size="small"
        loading={templates.isPending}
        columns={columns}
        dataSource={templates.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: <EmptyState description={t('maintenance.empty.templates')} /> }}
        scroll={{ x: 'max-content' }}
      />
      <TemplateDialog
        template={editing}
        open={adding || editing !== null}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <ApplyDialog template={applying} onClose={() => setApplying(null)} />
    </Space>
  );
}

export function MaintenancePage() {
  const { t } = useTranslation();
  const authorized = useAuthorized();
  const manages = authorized([Permission.gensetManage]);
  return (
    <Card>
      <h1 className="maint-title">{t('maintenance.title')}</h1>
      <Typography.Paragraph type="secondary">{t('maintenance.intro')}</Typography.Paragraph>
      {manages ? (
        <Tabs
          items={[
            { key: 'tasks', label: t('maintenance.tabs.tasks'), children: <TaskList /> },
            { key: 'templates', label: t('maintenance.tabs.templates'), children: <Templates /> },
          ]}
        />
      ) : (
        <TaskList />
      )}
    </Card>
  );
}
