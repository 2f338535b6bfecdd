// Editor of an option list (value → label in six languages): enumerations of data items and dropdowns.
import { Button, Card, Form, InputNumber, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { V } from '@genset/protocol';
import { TextFields } from './text-fields.tsx';

export function OptionsEditor({ name, label, required = false }: { name: string; label: string; required?: boolean }) {
  const { t } = useTranslation();
  return (
    <Form.List
      name={name}
      rules={
        required
          ? [
              {
                validator: (_rule, value: unknown[] | undefined) =>
                  value && value.length > 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('protocols.rules.options'))),
              },
            ]
          : []
      }
    >
      {(fields, { add, remove }, { errors }) => (
        <div role="group" aria-label={label}>
          <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
            {label}
          </Typography.Text>
          {fields.map((field, index) => (
            <Card
              key={field.key}
              size="small"
              style={{ marginBottom: 8 }}
              title={t('protocols.options.option', { n: index + 1 })}
              extra={
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(field.name)}
                  aria-label={t('protocols.options.remove', { n: index + 1 })}
                />
              }
            >
              <Form.Item
                name={[field.name, 'value']}
                label={t('protocols.options.value')}
                rules={[{ required: true, message: t(V.required) }]}
              >
                <InputNumber style={{ width: 160 }} aria-label={t('protocols.options.valueOf', { n: index + 1 })} />
              </Form.Item>
              <TextFields
                compact
                name={[field.name, 'label']}
                label={t('protocols.options.labelOf', { n: index + 1 })}
              />
            </Card>
          ))}
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add()}>
              {t('protocols.options.add')}
            </Button>
            <Form.ErrorList errors={errors} />
          </Space>
        </div>
      )}
    </Form.List>
  );
}
