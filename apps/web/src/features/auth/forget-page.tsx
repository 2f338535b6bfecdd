// Resetting a forgotten password with a code sent to the account (spec 1, 5).
import { App as AntApp, Form, Input } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PublicCard } from '../../components/public-card.tsx';
import { PublicFrame } from '../../components/public-frame.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { resetForgottenPassword } from './api.ts';
import { CodeField } from './code-field.tsx';
import { useRetryWait } from './retry-wait.ts';
import { SubmitButton } from './submit-button.tsx';

interface ForgetValues {
  username: string;
  code: string;
  newPassword: string;
  newPasswords: string;
}

export function ForgetPage() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<ForgetValues>();
  const navigate = useNavigate();
  const wait = useRetryWait();

  const submit = useMutation({
    mutationFn: resetForgottenPassword,
    onSuccess: () => {
      void message.success(t('auth.forget.done'));
      navigate('/login', { replace: true });
    },
    onError: (error) => {
      applyServerErrors(form, error);
      wait.waitAfter(error);
    },
  });

  return (
    <PublicFrame>
      <PublicCard>
        <h1>{t('auth.forget.title')}</h1>
        <p className="public-hint">{t('auth.forget.hint')}</p>
        <Form<ForgetValues>
          form={form}
          layout="vertical"
          name="forget"
          requiredMark={false}
          onFinish={(values) => submit.mutate(values)}
        >
          <Form.Item name="username" label={t('auth.fields.username')} rules={rules.username}>
            <Input autoComplete="username" placeholder={t('auth.fields.usernamePlaceholder')} size="large" />
          </Form.Item>
          <CodeField form={form} purpose="reset" />
          <NewPasswordFields newLabel={t('auth.fields.newPassword')} repeatLabel={t('auth.fields.repeatPassword')} />
          <SubmitButton label={t('auth.forget.submit')} pending={submit.isPending} wait={wait} />
        </Form>
        <div className="public-links">
          <Link to="/login">{t('auth.forget.toLogin')}</Link>
        </div>
      </PublicCard>
    </PublicFrame>
  );
}
