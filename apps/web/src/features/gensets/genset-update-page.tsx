// /crewmanage/update/{token}: editing a set's fields (manage rights); only what changed is sent. With
// genset:manage, the department the set belongs to too (moved first, then the fields are saved).
import { App as AntApp, Button, Card, Form, Result, Space, Typography } from 'antd';
import { Permission } from '@genset/protocol';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useGensetInfo, useUpdateGenset } from './api.ts';
import { GensetForm } from './genset-form.tsx';
import { changedFields, toFormValues, type FormValues } from './form-fields.ts';
import { setLinks } from './links.ts';
import { DepartmentSelect, useSetDepartment } from './department-select.tsx';
import { useAuthorized } from '../../components/use-authorized.ts';
import './gensets.css';

export function GensetUpdatePage() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const info = useGensetInfo(token);
  const update = useUpdateGenset();
  const move = useSetDepartment('genset');
  const allowed = useAuthorized();
  const [form] = Form.useForm<FormValues>();

  if (info.isPending) return <FullPageLoading />;
  if (info.isError) return <ErrorState error={info.error} onRetry={() => void info.refetch()} />;
  const set = info.data;
  if (set.rights !== 'manage') {
    return <Result status="403" title={t('gensets.edit.notAllowed')} />;
  }

  const movable = allowed([Permission.gensetManage]);
  const submit = (all: FormValues) => {
    const { departmentId, ...values } = all as FormValues & { departmentId?: number | null };
    const request = changedFields(token, values as FormValues, set);
    const moveTo = departmentId ?? null;
    const moving = movable && moveTo !== (set.departmentId ?? null);
    if (Object.keys(request).length === 1 && !moving) {
      void message.info(t('gensets.edit.nothingChanged'));
      return;
    }
    const save = () => {
      if (Object.keys(request).length === 1) {
        void message.success(t('common.saved'));
        void navigate(setLinks.detail(token));
        return;
      }
      saveFields(request);
    };
    if (moving)
      move.mutate(
        { tokens: [token], departmentId: moveTo },
        { onSuccess: save, onError: (error) => applyServerErrors(form, error) },
      );
    else save();
  };

  const saveFields = (request: ReturnType<typeof changedFields>) => {
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
        extra={
          movable ? (
            <Card size="small" title={<h2 style={{ fontSize: 15, margin: 0 }}>{t('gensets.department.title')}</h2>}>
              <Form.Item
                name="departmentId"
                label={t('gensets.department.label')}
                extra={t('gensets.department.hint')}
                style={{ maxWidth: 480 }}
              >
                <DepartmentSelect current={set.departmentName ?? null} />
              </Form.Item>
            </Card>
          ) : null
        }
        actions={
          <Space>
            <Button onClick={() => void navigate(setLinks.detail(token))}>{t('common.actions.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={update.isPending || move.isPending}>
              {t('common.actions.save')}
            </Button>
          </Space>
        }
      />
    </div>
  );
}
