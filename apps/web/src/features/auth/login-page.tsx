// Sign-in by password or by SMS code (spec 2, 5); afterwards the `redirect` query is followed.
import { useState } from 'react';
import { Form, Input, Segmented } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LoginResponse } from '@genset/protocol';
import { PublicCard } from '../../components/public-card.tsx';
import { PublicFrame } from '../../components/public-frame.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useSession } from '../../stores/session.ts';
import { safeRedirect, withRedirect } from '../../app/public-routes.ts';
import { loginWithCode, loginWithPassword } from './api.ts';
import { CodeField } from './code-field.tsx';
import { useRetryWait } from './retry-wait.ts';
import { SubmitButton } from './submit-button.tsx';

type Mode = 'password' | 'code';

interface LoginValues {
  username: string;
  password?: string;
  code?: string;
}

export function LoginPage() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<LoginValues>();
  const [mode, setMode] = useState<Mode>('password');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const wait = useRetryWait();

  const signIn = useMutation({
    mutationFn: (values: LoginValues): Promise<LoginResponse> =>
      mode === 'password'
        ? loginWithPassword({ username: values.username, password: values.password ?? '' })
        : loginWithCode({ username: values.username, code: values.code ?? '' }),
    onSuccess: (login) => {
      useSession.getState().signIn(login);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    onError: (error) => {
      applyServerErrors(form, error);
      wait.waitAfter(error);
    },
  });

  return (
    <PublicFrame>
      <PublicCard style={{ marginTop: '6vh' }}>
        <h1 style={{ textAlign: 'center' }}>{t('auth.login.title')}</h1>
        <Segmented<Mode>
          block
          value={mode}
          onChange={setMode}
          options={[
            { value: 'password', label: t('auth.login.byPassword') },
            { value: 'code', label: t('auth.login.byCode') },
          ]}
          style={{ marginBottom: 20 }}
          aria-label={t('auth.login.mode')}
          data-testid="login-mode"
        />
        <Form<LoginValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => signIn.mutate(values)}
          initialValues={{ username: '' }}
          name="login"
        >
          <Form.Item name="username" label={t('auth.fields.username')} rules={rules.username}>
            <Input
              prefix={<UserOutlined />}
              autoComplete="username"
              placeholder={t('auth.fields.usernamePlaceholder')}
              size="large"
            />
          </Form.Item>
          {mode === 'password' ? (
            <Form.Item name="password" label={t('auth.fields.password')} rules={rules.signInPassword}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
            </Form.Item>
          ) : (
            <CodeField form={form} purpose="login" />
          )}
          <SubmitButton label={t('auth.login.submit')} pending={signIn.isPending} wait={wait} testId="login-submit" />
        </Form>
        <div className="public-links">
          <Link to={withRedirect('/register', params.get('redirect'))}>{t('auth.login.toRegister')}</Link>
          <Link to="/forget">{t('auth.login.toForget')}</Link>
        </div>
      </PublicCard>
    </PublicFrame>
  );
}
