// A set's maintenance plan as the maintain tab shows it: each item with its cycle, next due date and hours and
// its state (ok, due, overdue), and the history of done tasks. A table on wide screens, a list of cards on
// phones. The read-only variant (no actions) is what a maintenance link shows; the dialogs and the links card
// are beside this file.
import {
  Button,
  Card,
  Descriptions,
  Grid,
  List,
  Popconfirm,
  Space,
  Switch,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { CheckOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { MaintItem, MaintState, MaintTask } from '@genset/protocol';
import { formatNumber, formatValue, NONE } from '../../components/format.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';
import { useDeleteItem, useToggleItem } from './api.ts';
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
  return <>{dueText(date, hours)}</>;
}

export function dueText(date: string | null, hours: number | null): string {
  return [date, hours === null ? null : hoursText(hours)].filter(Boolean).join(' · ') || NONE;
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
          <DeleteButton name={item.name} onConfirm={() => remove.mutateAsync({ token, id: item.id })} />
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

/** Delete, once confirmed: an item of a plan or a template, named in the question. */
export function DeleteButton({ name, onConfirm }: { name: string; onConfirm: () => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <Popconfirm
      title={t('maintenance.confirm.delete', { name })}
      okText={t('maintenance.actions.delete')}
      okButtonProps={{ danger: true }}
      cancelText={t('common.actions.cancel')}
      onConfirm={onConfirm}
    >
      <Button size="small" danger className="danger-readable" icon={<DeleteOutlined />}>
        {t('maintenance.actions.delete')}
      </Button>
    </Popconfirm>
  );
}
