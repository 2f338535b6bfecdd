// /genset/add: a new set. On success the set's codes (and the module's password, shown only this once)
// are displayed with the ways on.
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Result, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GensetAddResponse } from '@genset/protocol';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useAddGenset } from './api.ts';
import { GensetForm } from './genset-form.tsx';
import { emptyValues, toFields, type FormValues } from './form-fields.ts';
import { setLinks } from './links.ts';
import './gensets.css';

function Added({ name, result, onAnother }: { name: string; result: GensetAddResponse; onAnother: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="success"
        title={t('gensets.add.done', { name })}
        subTitle={t('gensets.add.doneHint')}
        extra={[
          <Button key="open" type="primary" onClick={() => void navigate(setLinks.detail(result.token))}>
            {t('gensets.add.open')}
          </Button>,
          <Button key="another" onClick={onAnother}>
            {t('gensets.add.another')}
          </Button>,
          <Button key="list" onClick={() => void navigate('/genset/list')}>
            {t('gensets.add.toList')}
          </Button>,
        ]}
      >
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            {
              key: 'sub',
              label: t('gensets.codes.subscription'),
              children: (
                <Typography.Text code copyable data-testid="subscription-code">
                  {result.subscriptionCode}
                </Typography.Text>
              ),
            },
            {
              key: 'control',
              label: t('gensets.codes.control'),
              children: (
                <Typography.Text code copyable data-testid="control-code">
                  {result.controlCode}
                </Typography.Text>
              ),
            },
            ...(result.modemSecret
              ? [
                  {
                    key: 'secret',
                    label: t('gensets.add.modemSecret'),
                    children: (
                      <Typography.Text code copyable data-testid="modem-secret">
                        {result.modemSecret}
                      </Typography.Text>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {result.modemSecret ? (
          <Alert type="warning" showIcon style={{ marginTop: 12 }} title={t('gensets.add.secretOnce')} />
        ) : null}
      </Result>
    </Card>
  );
}

export function GensetAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const add = useAddGenset();
  const [added, setAdded] = useState<{ name: string; result: GensetAddResponse } | null>(null);

  if (added) {
    return (
      <Added
        name={added.name}
        result={added.result}
        onAnother={() => {
          form.resetFields();
          setAdded(null);
        }}
      />
    );
  }

  return (
    <div>
      <h1 className="genset-page-title" style={{ marginBottom: 12 }}>
        {t('gensets.titles.add')}
      </h1>
      <GensetForm
        form={form}
        initialValues={emptyValues()}
        onSubmit={(values) =>
          add.mutate(toFields(values), {
            onSuccess: (result) => setAdded({ name: values.name.trim(), result }),
            onError: (error) => applyServerErrors(form, error),
          })
        }
        actions={
          <Space>
            <Button onClick={() => void navigate(-1)}>{t('common.actions.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={add.isPending}>
              {t('gensets.add.submit')}
            </Button>
          </Space>
        }
      />
    </div>
  );
}
