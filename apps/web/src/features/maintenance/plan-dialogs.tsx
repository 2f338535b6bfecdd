// The dialogs of a set's maintenance plan: adding or changing an item, and marking an item's pending task done.
import { App as AntApp, Form, Input, InputNumber, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MaintItem } from '@genset/protocol';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useMarkDone, useSaveItem } from './api.ts';
import { dueText } from './plan-view.tsx';

/** The model of a part replaced and a remark, which an item and a done task both carry. */
function WorkFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="replacedModel" label={t('maintenance.fields.replacedModel')}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="remark" label={t('maintenance.fields.remark')}>
        <Input.TextArea maxLength={200} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </>
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
  return (
    <FormDialog<ItemForm>
      form={form}
      open={open}
      title={item ? t('maintenance.dialog.editTitle') : t('maintenance.dialog.addTitle')}
      saving={save.isPending}
      onClose={onClose}
      onSave={async (values) => {
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
      }}
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
      testId="maint-item-dialog"
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
      <WorkFields />
      <Form.Item name="enabled" label={t('maintenance.fields.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormDialog>
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
  return (
    <FormDialog<DoneForm>
      form={form}
      open={item !== null}
      title={t('maintenance.dialog.doneTitle', { name: item?.name ?? '' })}
      okText={t('maintenance.actions.done')}
      saving={done.isPending}
      onClose={onClose}
      onSave={async (values) => {
        if (!item?.taskId) return;
        const result = await done.mutateAsync({
          token,
          id: item.taskId,
          actualDate: values.actualDate,
          runHours: values.runHours ?? null,
          replacedModel: values.replacedModel ?? '',
          remark: values.remark ?? '',
        });
        void message.success(t('maintenance.doneSaved', { next: dueText(result.next.dueDate, result.next.dueHours) }));
        onClose();
      }}
      initialValues={{ actualDate: today, runHours: runHours ?? undefined, replacedModel: item?.replacedModel ?? '' }}
      testId="maint-done-dialog"
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
      <WorkFields />
    </FormDialog>
  );
}
