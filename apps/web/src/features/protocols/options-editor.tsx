// Editor of an option list (value → label in six languages): enumerations of data items and dropdowns.
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { V } from '@genset/protocol';
import { CardList, notEmpty } from './editor-fields.tsx';
import { TextFields } from './text-fields.tsx';

export function OptionsEditor({ name, label, required = false }: { name: string; label: string; required?: boolean }) {
  const { t } = useTranslation();
  return (
    <CardList
      name={name}
      label={label}
      rules={required ? [notEmpty(t('protocols.rules.options'))] : []}
      cardTitle={(n) => t('protocols.options.option', { n })}
      removeLabel={(n) => t('protocols.options.remove', { n })}
      addText={t('protocols.options.add')}
    >
      {(field, index) => (
        <>
          <Form.Item
            name={[field, 'value']}
            label={t('protocols.options.value')}
            rules={[{ required: true, message: t(V.required) }]}
          >
            <InputNumber style={{ width: 160 }} aria-label={t('protocols.options.valueOf', { n: index + 1 })} />
          </Form.Item>
          <TextFields compact name={[field, 'label']} label={t('protocols.options.labelOf', { n: index + 1 })} />
        </>
      )}
    </CardList>
  );
}
