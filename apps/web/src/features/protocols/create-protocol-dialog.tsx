// A new protocol: its key, register-map family and name in six languages, with its first data item (a map
// holds at least one). It starts as draft version 1.
import { Alert, Col, Divider, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { dataTypeSchema, itemGroupSchema, type DataItem, type ProtocolText } from '@genset/protocol';
import { useCreateProtocol, type VersionRef } from './api.ts';
import { useDocumentRules } from './document-rules.ts';
import { ProtocolDialog, ProtocolKeyField } from './protocol-dialog.tsx';
import { TextFields } from './text-fields.tsx';

interface CreateForm {
  key: string;
  layout: string;
  name: ProtocolText;
  item: {
    key: string;
    name: ProtocolText;
    fc: DataItem['fc'];
    address: number;
    type: DataItem['type'];
    group: DataItem['group'];
  };
}

export function CreateProtocolDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (ref: VersionRef) => void;
}) {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const [form] = Form.useForm<CreateForm>();
  const create = useCreateProtocol();
  const fc = Form.useWatch(['item', 'fc'], form);
  const bitFc = fc === 1 || fc === 2;

  const close = () => {
    form.resetFields();
    create.reset();
    props.onClose();
  };

  const submit = async (values: CreateForm) => {
    const { item } = values;
    try {
      const ref = await create.mutateAsync({
        key: values.key.trim(),
        name: values.name,
        version: 1,
        layout: values.layout.trim(),
        items: [
          {
            key: item.key.trim(),
            name: item.name,
            fc: item.fc,
            address: item.address,
            type: bitFc ? 'bit' : item.type,
            group: item.group,
            ...(!bitFc && item.type === 'bit' ? { bit: 0 } : {}),
          },
        ],
      });
      form.resetFields();
      props.onCreated(ref);
    } catch {
      // the problems show in the dialog
    }
  };

  return (
    <ProtocolDialog<CreateForm>
      form={form}
      name="create-protocol"
      open={props.open}
      title={t('protocols.create.title')}
      okText={t('protocols.create.ok')}
      width={800}
      saving={create.isPending}
      error={create.error}
      onCancel={close}
      onFinish={submit}
      initialValues={{ item: { fc: 3, type: 'u16', group: 'engine', address: 0 } }}
    >
      <Row gutter={12}>
        <Col xs={24} sm={16}>
          <ProtocolKeyField />
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item
            name="layout"
            label={t('protocols.fields.layout')}
            tooltip={t('protocols.hints.layout')}
            rules={[...rules.text.slice(0, 1), { max: 20, message: t('validation.tooLong') }]}
          >
            <Input maxLength={20} />
          </Form.Item>
        </Col>
      </Row>
      <TextFields name="name" label={t('protocols.fields.name')} />
      <Divider titlePlacement="start">{t('protocols.create.firstItem')}</Divider>
      <Alert type="info" showIcon title={t('protocols.create.firstItemHint')} style={{ marginBottom: 12 }} />
      <Form.Item
        name={['item', 'key']}
        label={t('protocols.fields.itemKey')}
        rules={rules.key([])}
        tooltip={t('protocols.hints.key')}
      >
        <Input maxLength={60} spellCheck={false} />
      </Form.Item>
      <TextFields name={['item', 'name']} label={t('protocols.fields.itemName')} />
      <Row gutter={12}>
        <Col xs={24} sm={6}>
          <Form.Item name={['item', 'fc']} label={t('protocols.fields.fc')} rules={rules.required}>
            <Select options={[1, 2, 3, 4].map((value) => ({ value, label: t(`protocols.fc.${value}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name={['item', 'address']} label={t('protocols.fields.address')} rules={rules.address}>
            <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name={['item', 'type']} label={t('protocols.fields.type')} rules={rules.required}>
            <Select
              disabled={bitFc}
              options={(bitFc ? ['bit'] : dataTypeSchema.options.filter((v) => v !== 'bit')).map((value) => ({
                value,
                label: value,
              }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={6}>
          <Form.Item name={['item', 'group']} label={t('protocols.fields.group')} rules={rules.required}>
            <Select
              options={itemGroupSchema.options.map((value) => ({ value, label: t(`protocols.groups.${value}`) }))}
            />
          </Form.Item>
        </Col>
      </Row>
    </ProtocolDialog>
  );
}
