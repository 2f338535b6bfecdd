// Creating an account with a code sent to the mobile number or e-mail address (spec 1, 5).
import { App as AntApp, Checkbox, Form, Input, Radio } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import type { AccountType } from '@genset/protocol';
import { useSession } from '../../stores/session.ts';
import { PublicCard } from '../../components/public-card.tsx';
import { PublicFrame } from '../../components/public-frame.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { register } from './api.ts';
import { CodeField } from './code-field.tsx';
import { useRetryWait } from './retry-wait.ts';
import { SubmitButton } from './submit-button.tsx';
import { safeRedirect, withRedirect } from '../../app/public-routes.ts';

interface RegisterValues {
  type: AccountType;
  username: string;
  code: string;
  nickname?: string;
  newPassword: string;
  newPasswords: string;
  inviteCode?: string;
  agree: boolean;
}

export function RegisterPage() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<RegisterValues>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const wait = useRetryWait();

  const submit = useMutation({
    mutationFn: ({ agree: _agree, nickname, inviteCode, ...values }: RegisterValues) =>
      register({
        ...values,
        ...(nickname?.trim() ? { nickname: nickname.trim() } : {}),
        ...(inviteCode?.trim() ? { inviteCode: inviteCode.trim() } : {}),
      }),
    onSuccess: (login) => {
      void message.success(t('auth.register.done'));
      useSession.getState().signIn(login);
      // back to where sign-in was asked for (a set's QR code, say), else home
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    onError: (error) => {
      applyServerErrors(form, error);
      wait.waitAfter(error);
    },
  });

  return (
    <PublicFrame width={460}>
      <PublicCard>
        <h1>{t('auth.register.title')}</h1>
        <Form<RegisterValues>
          form={form}
          layout="vertical"
          name="register"
          requiredMark="optional"
          initialValues={{ type: 'personal', inviteCode: params.get('invite') ?? params.get('inviteCode') ?? '' }}
          onFinish={(values) => submit.mutate(values)}
        >
          <Form.Item name="type" label={t('auth.fields.accountType')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'personal', label: t('auth.accountTypes.personal') },
                { value: 'corporate', label: t('auth.accountTypes.corporate') },
              ]}
            />
          </Form.Item>
          <Form.Item name="username" label={t('auth.fields.username')} rules={rules.username}>
            <Input autoComplete="username" placeholder={t('auth.fields.usernamePlaceholder')} size="large" />
          </Form.Item>
          <CodeField form={form} purpose="register" />
          <Form.Item
            name="nickname"
            label={t('auth.fields.nickname')}
            rules={[{ max: 40, message: t('validation.tooLong') }]}
          >
            <Input autoComplete="nickname" maxLength={40} />
          </Form.Item>
          <NewPasswordFields newLabel={t('auth.fields.newPassword')} repeatLabel={t('auth.fields.repeatPassword')} />
          <Form.Item name="inviteCode" label={t('auth.fields.inviteCode')}>
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item
            name="agree"
            valuePropName="checked"
            rules={[
              {
                validator: (_rule, value: unknown) =>
                  value ? Promise.resolve() : Promise.reject(new Error(t('auth.register.mustAgree'))),
              },
            ]}
          >
            <Checkbox>
              <Trans
                i18nKey="auth.register.agree"
                components={{ agreement: <Link to="/xieyis" />, privacy: <Link to="/yinsi" /> }}
              />
            </Checkbox>
          </Form.Item>
          <SubmitButton label={t('auth.register.submit')} pending={submit.isPending} wait={wait} />
        </Form>
        <div className="public-links">
          <Link to={withRedirect('/login', params.get('redirect'))}>{t('auth.register.toLogin')}</Link>
        </div>
      </PublicCard>
    </PublicFrame>
  );
}
