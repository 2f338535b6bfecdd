// /crewmanage/update/{token}: editing a set's fields (manage rights); only what changed is sent.
import { App as AntApp, Button, Form, Result, Space, Typography } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useGensetInfo, useUpdateGenset } from './api.ts';
import { GensetForm } from './genset-form.tsx';
import { changedFields, toFormValues, type FormValues } from './form-fields.ts';
import { setLinks } from './links.ts';
import './gensets.css';

export function GensetUpdatePage() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const info = useGensetInfo(token);
  const update = useUpdateGenset();
  const [form] = Form.useForm<FormValues>();

  if (info.isPending) return <FullPageLoading />;
  if (info.isError) return <ErrorState error={info.error} onRetry={() => void info.refetch()} />;
  const set = info.data;
  if (set.rights !== 'manage') {
    return <Result status="403" title={t('gensets.edit.notAllowed')} />;
  }

  const submit = (values: FormValues) => {
    const request = changedFields(token, values, set);
    if (Object.keys(request).length === 1) {
      void message.info(t('gensets.edit.nothingChanged'));
      return;
    }
    update.mutate(request, {
      onSuccess: (result) => {
        void message.success(t('common.saved'));
        const secret = (result as { modemSecret?: string | null } | null)?.modemSecret;
        if (secret) {
          modal.info({
            title: t('gensets.add.modemSecret'),
            content: (
              <div>
                <Typography.Paragraph>{t('gensets.add.secretOnce')}</Typography.Paragraph>
                <Typography.Text code copyable data-testid="modem-secret">
                  {secret}
                </Typography.Text>
              </div>
            ),
            okText: t('common.actions.confirm'),
            onOk: () => void navigate(setLinks.detail(token)),
          });
        } else void navigate(setLinks.detail(token));
      },
      onError: (error) => applyServerErrors(form, error),
    });
  };

  return (
    <div>
      <h1 className="genset-page-title" style={{ marginBottom: 12 }}>
        {t('gensets.titles.edit', { name: set.name })}
      </h1>
      <GensetForm
        key={token}
        form={form}
        initialValues={toFormValues(set)}
        onSubmit={submit}
        actions={
          <Space>
            <Button onClick={() => void navigate(setLinks.detail(token))}>{t('common.actions.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              {t('common.actions.save')}
            </Button>
          </Space>
        }
      />
    </div>
  );
}
