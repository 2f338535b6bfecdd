// Setting a SIM card's plan: its size in MB, the day its billing month starts on and the share of it past
// which the set's people are told. The server checks the values; its refusals appear beside the fields.
import { App as AntApp, Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { SIM_DEFAULT_ALARM_SHARE, type SimPlan } from '@genset/protocol';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useSetPlan } from './api.ts';

export function PlanDialog({
  token,
  plan,
  open,
  onClose,
}: {
  token: string;
  plan: SimPlan | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<SimPlan>();
  const save = useSetPlan();
  return (
    <FormDialog<SimPlan>
      form={form}
      open={open}
      title={t('iotcard.plan.title')}
      saving={save.isPending}
      onClose={onClose}
      onSave={async (values) => {
        await save.mutateAsync({ token, ...values });
        void message.success(t('iotcard.plan.saved'));
        onClose();
      }}
      initialValues={plan ?? { startDay: 1, alarmShare: SIM_DEFAULT_ALARM_SHARE }}
      testId="sim-plan-dialog"
    >
      <Form.Item name="sizeMb" label={t('iotcard.plan.size')} extra={t('iotcard.plan.sizeHelp')}>
        <InputNumber style={{ width: '100%' }} data-testid="sim-plan-size" />
      </Form.Item>
      <Form.Item name="startDay" label={t('iotcard.plan.startDay')} extra={t('iotcard.plan.startDayHelp')}>
        <InputNumber style={{ width: '100%' }} precision={0} data-testid="sim-plan-start" />
      </Form.Item>
      <Form.Item name="alarmShare" label={t('iotcard.plan.alarmShare')} extra={t('iotcard.plan.alarmShareHelp')}>
        <InputNumber style={{ width: '100%' }} data-testid="sim-plan-share" />
      </Form.Item>
    </FormDialog>
  );
}
