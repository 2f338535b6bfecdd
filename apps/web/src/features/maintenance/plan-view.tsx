// A set's maintenance plan as the maintain tab shows it: each item with its cycle, next due date and hours and
// its state (ok, due, overdue), the history of done tasks, and, for those who may, the item dialog, the
// "mark done" dialog and the maintenance links. A table on wide screens, a list of cards on phones. The
// read-only variant (no actions) is what a maintenance link shows.
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
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { CheckOutlined, DeleteOutlined, EditOutlined, LinkOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MaintItem, MaintLink, MaintPlanResponse, MaintState, MaintTask } from '@genset/protocol';
import { formatDateTime, formatNumber, formatValue, NONE } from '../../components/format.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useCreateLink, useDeleteItem, useMarkDone, useRevokeLink, useSaveItem, useToggleItem } from './api.ts';
import './maintenance.css';

const STATE_TONES: Record<MaintState, Tone> = { ok: 'green', due: 'orange', overdue: 'red' };

export function StateTag({ state }: { state: MaintState }) {
  const { t } = useTranslation();
  return (
    <ToneTag tone={STATE_TONES[state]} data-state={state} data-testid="maint-state">
      {t(`maintenance.state.${state}`)}
    </ToneTag>
  );
}

export function hoursText(hours: number | null): string {
  return hours === null ? NONE : formatValue(hours, 'h', 1);
}

/** When the next service is due: a date, run hours, or both. */
export function DueText({ date, hours }: { date: string | null; hours: number | null }) {
  const parts = [date, hours === null ? null : hoursText(hours)].filter(Boolean);
  return <>{parts.length ? parts.join(' · ') : NONE}</>;
}

function CycleText({ item }: { item: MaintItem }) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (item.cycleDays) parts.push(t('maintenance.cycle.days', { count: item.cycleDays }));
  if (item.cycleHours) parts.push(t('maintenance.cycle.hours', { hours: formatNumber(item.cycleHours, 1) }));
  return <>{parts.join(' · ') || NONE}</>;
}

interface Actions {
  edit: (item: MaintItem) => void;
  done: (item: MaintItem) => void;
}

function ItemActions({
  token,
  item,
  plan,
  actions,
}: {
  token: string;
  item: MaintItem;
  plan: PlanAccess;
  actions: Actions;
}) {
  const { t } = useTranslation();
  const toggle = useToggleItem();
  const remove = useDeleteItem();
  return (
    <Space size={8} wrap>
      {plan.canMarkDone && item.taskId !== null ? (
        <Button size="small" type="primary" icon={<CheckOutlined />} onClick={() => actions.done(item)}>
          {t('maintenance.actions.done')}
        </Button>
      ) : null}
      {plan.canEdit ? (
        <>
          <Button size="small" icon={<EditOutlined />} onClick={() => actions.edit(item)}>
            {t('maintenance.actions.edit')}
          </Button>
          <Switch
            size="small"
            checked={item.enabled}
            loading={toggle.isPending}
            aria-label={t('maintenance.fields.enabled')}
            onChange={(enabled) => toggle.mutate({ token, id: item.id, enabled })}
          />
          <Popconfirm
            title={t('maintenance.confirm.delete', { name: item.name })}
            okText={t('maintenance.actions.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.actions.cancel')}
            onConfirm={() => remove.mutateAsync({ token, id: item.id })}
          >
            <Button size="small" danger className="danger-readable" icon={<DeleteOutlined />}>
              {t('maintenance.actions.delete')}
            </Button>
          </Popconfirm>
        </>
      ) : null}
    </Space>
  );
}

interface PlanAccess {
  canEdit: boolean;
  canMarkDone: boolean;
}

/** The items of a plan, with their state and what the caller may do. */
export function PlanItems({
  token,
  items,
  access,
  actions,
}: {
  token: string;
  items: MaintItem[];
  access: PlanAccess;
  actions?: Actions;
}) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const withActions = actions && (access.canEdit || access.canMarkDone);
  const empty = <EmptyState description={t('maintenance.empty.items')} />;
  if (narrow)
    return (
      <List<MaintItem>
        className="maint-cards"
        dataSource={items}
        locale={{ emptyText: empty }}
        renderItem={(item) => (
          <List.Item key={item.id} data-testid="maint-item">
            <Card size="small" className="maint-card">
              <Space size={8} wrap className="maint-card-head">
                <strong>{item.name}</strong>
                {item.enabled ? (
                  <StateTag state={item.state} />
                ) : (
                  <ToneTag tone="grey">{t('maintenance.state.disabled')}</ToneTag>
                )}
              </Space>
              <Descriptions size="small" column={1}>
                <Descriptions.Item label={t('maintenance.fields.nextDue')}>
                  <DueText date={item.dueDate} hours={item.dueHours} />
                </Descriptions.Item>
                <Descriptions.Item label={t('maintenance.fields.cycle')}>
                  <CycleText item={item} />
                </Descriptions.Item>
                <Descriptions.Item label={t('maintenance.fields.latest')}>
                  <DueText date={item.latestDate} hours={item.latestHours} />
                </Descriptions.Item>
                {item.replacedModel ? (
                  <Descriptions.Item label={t('maintenance.fields.replacedModel')}>
                    {item.replacedModel}
                  </Descriptions.Item>
                ) : null}
              </Descriptions>
              {withActions ? <ItemActions token={token} item={item} plan={access} actions={actions} /> : null}
            </Card>
          </List.Item>
        )}
      />
    );
  const columns: TableColumnsType<MaintItem> = [
    { key: 'name', title: t('maintenance.fields.name'), dataIndex: 'name' },
    { key: 'cycle', title: t('maintenance.fields.cycle'), render: (_, item) => <CycleText item={item} /> },
    {
      key: 'latest',
      title: t('maintenance.fields.latest'),
      responsive: ['lg'],
      render: (_, item) => <DueText date={item.latestDate} hours={item.latestHours} />,
    },
    {
      key: 'next',
      title: t('maintenance.fields.nextDue'),
      render: (_, item) => <DueText date={item.dueDate} hours={item.dueHours} />,
    },
    {
      key: 'remind',
      title: t('maintenance.fields.remind'),
      responsive: ['lg'],
      render: (_, item) =>
        [
          item.cycleDays || item.plannedDate ? t('maintenance.cycle.days', { count: item.remindDays }) : null,
          item.cycleHours ? t('maintenance.cycle.hours', { hours: formatNumber(item.remindHours, 1) }) : null,
        ]
          .filter(Boolean)
          .join(' · ') || NONE,
    },
    {
      key: 'state',
      title: t('maintenance.fields.state'),
      render: (_, item) =>
        item.enabled ? (
          <StateTag state={item.state} />
        ) : (
          <ToneTag tone="grey">{t('maintenance.state.disabled')}</ToneTag>
        ),
    },
    {
      key: 'model',
      title: t('maintenance.fields.replacedModel'),
      responsive: ['xl'],
      render: (_, item) => item.replacedModel || NONE,
    },
    {
      key: 'remark',
      title: t('maintenance.fields.remark'),
      responsive: ['xl'],
      render: (_, item) => item.remark || NONE,
    },
  ];
  if (withActions)
    columns.push({
      key: 'actions',
      title: t('maintenance.fields.actions'),
      render: (_, item) => <ItemActions token={token} item={item} plan={access} actions={actions} />,
    });
  return (
    <Table<MaintItem>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={items}
      pagination={false}
      locale={{ emptyText: empty }}
      onRow={() => ({ 'data-testid': 'maint-item' }) as React.HTMLAttributes<HTMLElement>}
      scroll={{ x: 'max-content' }}
    />
  );
}

/** Done tasks: what, when, at how many run hours, by whom. */
export function HistoryItems({ list }: { list: MaintTask[] }) {
  const { t } = useTranslation();
  return (
    <List<MaintTask>
      size="small"
      dataSource={list}
      locale={{ emptyText: <EmptyState description={t('maintenance.empty.history')} /> }}
      renderItem={(task) => (
        <List.Item key={task.id} data-testid="maint-history">
          <Space direction="vertical" size={0} style={{ width: '100%' }}>
            <Space size={8} wrap>
              <strong>{task.name}</strong>
              <span>{task.actualDate ?? NONE}</span>
              {task.runHours !== null ? <span>{hoursText(task.runHours)}</span> : null}
            </Space>
            <Typography.Text type="secondary" className="maint-history-meta">
              {[
                task.doneBy ? t('maintenance.history.by', { name: task.doneBy }) : null,
                task.replacedModel ? t('maintenance.history.replaced', { model: task.replacedModel }) : null,
                task.remark || null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}

interface ItemForm {
  name: string;
  cycleDays?: number | null;
  cycleHours?: number | null;
  remindDays?: number | null;
  remindHours?: number | null;
  latestDate?: string;
  latestHours?: number | null;
  plannedDate?: string;
  replacedModel?: string;
  remark?: string;
  enabled: boolean;
}

/** Adds an item (`item` absent) or changes one; refusals show beside their fields. */
export function ItemDialog({
  token,
  item,
  open,
  onClose,
}: {
  token: string;
  item: MaintItem | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<ItemForm>();
  const save = useSaveItem();
  const submit = async (values: ItemForm) => {
    try {
      await save.mutateAsync({
        token,
        ...(item ? { id: item.id } : {}),
        name: values.name,
        cycleDays: values.cycleDays ?? null,
        cycleHours: values.cycleHours ?? null,
        remindDays: values.remindDays ?? 0,
        remindHours: values.remindHours ?? 0,
        latestDate: values.latestDate || null,
        latestHours: values.latestHours ?? null,
        plannedDate: values.plannedDate || null,
        replacedModel: values.replacedModel ?? '',
        remark: values.remark ?? '',
        enabled: values.enabled,
      });
      void message.success(t('maintenance.saved'));
      onClose();
    } catch (err) {
      applyServerErrors(form, err);
      if (!Object.keys((err as { fields?: object }).fields ?? {}).length) void message.error((err as Error).message);
    }
  };
  return (
    <Modal
      open={open}
      title={item ? t('maintenance.dialog.editTitle') : t('maintenance.dialog.addTitle')}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="maint-item-dialog"
    >
      <Form<ItemForm>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={submit}
        initialValues={
          item
            ? {
                name: item.name,
                cycleDays: item.cycleDays,
                cycleHours: item.cycleHours,
                remindDays: item.remindDays,
                remindHours: item.remindHours,
                latestDate: item.latestDate ?? undefined,
                latestHours: item.latestHours,
                plannedDate: item.plannedDate ?? undefined,
                replacedModel: item.replacedModel,
                remark: item.remark,
                enabled: item.enabled,
              }
            : { remindDays: 0, remindHours: 0, enabled: true }
        }
      >
        <Form.Item
          name="name"
          label={t('maintenance.fields.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Space size={12} wrap>
          <Form.Item name="cycleDays" label={t('maintenance.fields.cycleDays')}>
            <InputNumber min={0} max={3650} precision={0} />
          </Form.Item>
          <Form.Item name="cycleHours" label={t('maintenance.fields.cycleHours')}>
            <InputNumber min={0} max={100000} />
          </Form.Item>
        </Space>
        <Space size={12} wrap>
          <Form.Item name="remindDays" label={t('maintenance.fields.remindDays')}>
            <InputNumber min={0} max={3650} precision={0} />
          </Form.Item>
          <Form.Item name="remindHours" label={t('maintenance.fields.remindHours')}>
            <InputNumber min={0} max={100000} />
          </Form.Item>
        </Space>
        <Space size={12} wrap>
          <Form.Item name="latestDate" label={t('maintenance.fields.latestDate')}>
            <Input type="date" />
          </Form.Item>
          <Form.Item name="latestHours" label={t('maintenance.fields.latestHours')}>
            <InputNumber min={0} />
          </Form.Item>
        </Space>
        <Form.Item name="plannedDate" label={t('maintenance.fields.plannedDate')}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="replacedModel" label={t('maintenance.fields.replacedModel')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="remark" label={t('maintenance.fields.remark')}>
          <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        <Form.Item name="enabled" label={t('maintenance.fields.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface DoneForm {
  actualDate: string;
  runHours?: number | null;
  replacedModel?: string;
  remark?: string;
}

/** Records the work on an item's pending task: the day, the run hours then (the set's now by default). */
export function DoneDialog({
  token,
  item,
  today,
  runHours,
  onClose,
}: {
  token: string;
  item: MaintItem | null;
  today: string;
  runHours: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<DoneForm>();
  const done = useMarkDone();
  const submit = async (values: DoneForm) => {
    if (!item?.taskId) return;
    try {
      const result = await done.mutateAsync({
        token,
        id: item.taskId,
        actualDate: values.actualDate,
        runHours: values.runHours ?? null,
        replacedModel: values.replacedModel ?? '',
        remark: values.remark ?? '',
      });
      const next = [result.next.dueDate, result.next.dueHours === null ? null : hoursText(result.next.dueHours)]
        .filter(Boolean)
        .join(' · ');
      void message.success(t('maintenance.doneSaved', { next: next || NONE }));
      onClose();
    } catch (err) {
      applyServerErrors(form, err);
      if (!Object.keys((err as { fields?: object }).fields ?? {}).length) void message.error((err as Error).message);
    }
  };
  return (
    <Modal
      open={item !== null}
      title={t('maintenance.dialog.doneTitle', { name: item?.name ?? '' })}
      okText={t('maintenance.actions.done')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={done.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="maint-done-dialog"
    >
      <Form<DoneForm>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={submit}
        initialValues={{ actualDate: today, runHours: runHours ?? undefined, replacedModel: item?.replacedModel ?? '' }}
      >
        <Form.Item
          name="actualDate"
          label={t('maintenance.fields.actualDate')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Input type="date" max={today} />
        </Form.Item>
        <Form.Item name="runHours" label={t('maintenance.fields.runHours')}>
          <InputNumber min={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="replacedModel" label={t('maintenance.fields.replacedModel')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="remark" label={t('maintenance.fields.remark')}>
          <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const LINK_DAYS = [1, 3, 7, 14, 30, 90];

/** Maintenance links of the set: make one (shown once, to copy), revoke those still valid. */
export function LinksCard({ token, links }: { token: string; links: MaintLink[] }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<string | null>(null);
  const create = useCreateLink();
  const revoke = useRevokeLink();
  const make = async () => {
    const result = await create.mutateAsync({ token, days });
    setMade(`${window.location.origin}/top/maintain?mtoken=${encodeURIComponent(result.mtoken)}`);
    void message.success(t('maintenance.links.created'));
  };
  return (
    <Card size="small" title={t('maintenance.links.title')} data-testid="maint-links">
      <Typography.Paragraph type="secondary">{t('maintenance.links.explain')}</Typography.Paragraph>
      <Space size={8} wrap>
        <Select
          value={days}
          onChange={setDays}
          aria-label={t('maintenance.links.days')}
          options={LINK_DAYS.map((d) => ({ value: d, label: t('maintenance.links.validFor', { count: d }) }))}
          style={{ minWidth: 140 }}
        />
        <Button icon={<LinkOutlined />} loading={create.isPending} onClick={() => void make()}>
          {t('maintenance.links.create')}
        </Button>
      </Space>
      {made ? (
        <Typography.Paragraph copyable={{ text: made }} className="maint-link" data-testid="maint-link-url">
          {made}
        </Typography.Paragraph>
      ) : null}
      {links.length ? (
        <List<MaintLink>
          size="small"
          dataSource={links}
          renderItem={(link) => (
            <List.Item
              key={link.id}
              actions={[
                <Popconfirm
                  key="revoke"
                  title={t('maintenance.links.revokeConfirm')}
                  okText={t('maintenance.links.revoke')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.actions.cancel')}
                  onConfirm={() => revoke.mutateAsync({ token, id: link.id })}
                >
                  <Button size="small" danger className="danger-readable">
                    {t('maintenance.links.revoke')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              {t('maintenance.links.until', { time: formatDateTime(link.expiresAt) })}
            </List.Item>
          )}
        />
      ) : null}
    </Card>
  );
}

/** The plan card of the maintain tab with its dialogs. */
export function PlanCard({ plan }: { plan: MaintPlanResponse }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<MaintItem | null>(null);
  const [adding, setAdding] = useState(false);
  const [doing, setDoing] = useState<MaintItem | null>(null);
  return (
    <Card
      size="small"
      title={t('maintenance.plan.title')}
      data-testid="maint-plan"
      extra={
        plan.canEdit ? (
          <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('maintenance.actions.add')}
          </Button>
        ) : null
      }
    >
      <PlanItems token={plan.token} items={plan.items} access={plan} actions={{ edit: setEditing, done: setDoing }} />
      <ItemDialog
        token={plan.token}
        item={editing}
        open={adding || editing !== null}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <DoneDialog
        token={plan.token}
        item={doing}
        today={plan.today}
        runHours={plan.runHours}
        onClose={() => setDoing(null)}
      />
    </Card>
  );
}
