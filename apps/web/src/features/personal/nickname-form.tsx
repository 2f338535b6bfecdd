// Editing the nickname shown in the console.
import { App as AntApp, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { refreshProfile } from '../../api/session.ts';
import { useSession } from '../../stores/session.ts';
import { useFormRules } from '../../components/form-rules.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { updateNickname } from './api.ts';

export function NicknameForm() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { message } = AntApp.useApp();
  const user = useSession((s) => s.user);
  const [form] = Form.useForm<{ nickname: string }>();
  const save = useMutation({
    mutationFn: ({ nickname }: { nickname: string }) => updateNickname(nickname),
    onSuccess: async () => {
      await refreshProfile();
      void message.success(t('common.saved'));
    },
    onError: (error) => applyServerErrors(form, error),
  });

  return (
    <Form
      form={form}
      layout="vertical"
      name="nickname"
      initialValues={{ nickname: user?.nickname ?? '' }}
      onFinish={(values) => save.mutate(values)}
      style={{ maxWidth: 480 }}
    >
      <Form.Item label={t('personal.profile.account')} htmlFor="profile-account">
        <Input id="profile-account" value={user?.account} disabled />
      </Form.Item>
      <Form.Item
        name="nickname"
        label={t('personal.profile.nickname')}
        rules={[...rules.required, { max: 40, message: t('validation.tooLong') }]}
      >
        <Input maxLength={40} autoComplete="nickname" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('common.actions.save')}
      </Button>
    </Form>
  );
}
