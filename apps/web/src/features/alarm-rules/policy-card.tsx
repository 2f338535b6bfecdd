// The company's alarm policy (its administrators): how long an alarm may stay cleared and still continue its episode
// when it comes back, and whom an episode nobody acknowledged is escalated to, after how long.
import { useEffect } from 'react';
import { App as AntApp, Button, Card, Form, InputNumber, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALARM_HOLD_MAX_S, ESCALATE_AFTER_MAX_MIN, ESCALATE_TO_MAX } from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useAlarmPolicy, useSaveAlarmPolicy } from './api.ts';

interface FormValues {
  holdSeconds: number;
  escalate: boolean;
  escalateAfterMinutes: number;
  escalateTo: number[];
}

export function PolicyCard() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const policy = useAlarmPolicy();
  const save = useSaveAlarmPolicy();
  const [form] = Form.useForm<FormValues>();
  const escalate = Form.useWatch('escalate', form);

  useEffect(() => {
    if (!policy.data) return;
    form.setFieldsValue({
      holdSeconds: policy.data.holdSeconds,
      escalate: policy.data.escalateAfterMinutes !== null,
      escalateAfterMinutes: policy.data.escalateAfterMinutes ?? 30,
      escalateTo: policy.data.escalateTo,
    });
  }, [policy.data, form]);

  if (policy.isError) return <ErrorState error={policy.error} onRetry={() => void policy.refetch()} />;

  async function submit(v: FormValues) {
    try {
      await save.mutateAsync({
        holdSeconds: v.holdSeconds,
        escalateAfterMinutes: v.escalate ? v.escalateAfterMinutes : null,
        escalateTo: v.escalate ? v.escalateTo : [],
      });
      void message.success(t('common.saved'));
    } catch (error) {
      applyServerErrors(form, error);
    }
  }

  return (
    <Card title={t('alarmRules.policy.title')} loading={policy.isPending} data-testid="alarm-policy">
      <Typography.Paragraph type="secondary">{t('alarmRules.policy.intro')}</Typography.Paragraph>
      <Form<FormValues> form={form} layout="vertical" onFinish={(v) => void submit(v)} style={{ maxWidth: 560 }}>
        <Form.Item name="holdSeconds" label={t('alarmRules.policy.hold')} tooltip={t('alarmRules.policy.holdHelp')}>
          <InputNumber min={0} max={ALARM_HOLD_MAX_S} precision={0} style={{ width: 160 }} suffix={t('alarmRules.s')} />
        </Form.Item>
        <Form.Item name="escalate" label={t('alarmRules.policy.escalate')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {escalate && (
          <>
            <Form.Item name="escalateAfterMinutes" label={t('alarmRules.policy.after')}>
              <InputNumber
                min={1}
                max={ESCALATE_AFTER_MAX_MIN}
                precision={0}
                style={{ width: 160 }}
                suffix={t('alarmRules.policy.min')}
              />
            </Form.Item>
            <Form.Item
              name="escalateTo"
              label={t('alarmRules.policy.to')}
              tooltip={t('alarmRules.policy.toHelp')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Select
                mode="multiple"
                maxCount={ESCALATE_TO_MAX}
                showSearch={{ optionFilterProp: 'label' }}
                options={(policy.data?.people ?? []).map((p) => ({ value: p.id, label: p.name }))}
                data-testid="alarm-policy-people"
              />
            </Form.Item>
          </>
        )}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.actions.save')}
        </Button>
      </Form>
    </Card>
  );
}
