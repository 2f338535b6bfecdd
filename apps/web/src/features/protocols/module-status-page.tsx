// /com/module/mukuai/{id}: module status — what is shown about the cloud module itself (signal, SIM, GPS,
// inputs, firmware: each a value of the module's own reports), and, for reference, the controller's status
// points (the items of the status group, edited under protocol management) with the alarms that read them.
import { Col, Form, Input, Row, Select, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  MODULE_SOURCES,
  type ModuleItem,
  type ModuleSource,
  type ProtocolDetail,
  type ProtocolText,
} from '@genset/protocol';
import { DecimalsField, KeyNameFields, UnitField, useEditor } from './editor-fields.tsx';
import { sectionScreen, type SectionContext } from './section-page.tsx';
import { ListTable } from './section-table.tsx';

interface ModuleItemForm {
  key: string;
  name: ProtocolText;
  source: ModuleSource;
  input?: string;
  unit?: string;
  decimals: number;
}

/** The locale key of a source: its path with the dot replaced ("signal.rssi" → "signal_rssi"). */
const sourceKey = (source: ModuleSource) => `protocols.sources.${source.replace('.', '_')}`;

function ModuleItemFields({ taken }: { taken: string[] }) {
  const { t, rules } = useEditor();
  const source = Form.useWatch<ModuleSource | undefined>('source');
  return (
    <>
      <KeyNameFields taken={taken} />
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item name="source" label={t('protocols.fields.source')} rules={rules.required}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={MODULE_SOURCES.map((value) => ({ value, label: `${t(sourceKey(value))} (${value})` }))}
            />
          </Form.Item>
        </Col>
        {source === 'inputs' && (
          <Col xs={24} sm={12}>
            <Form.Item
              name="input"
              label={t('protocols.fields.input')}
              tooltip={t('protocols.hints.input')}
              rules={[...rules.text.slice(0, 1), { max: 32, message: t('validation.tooLong') }]}
            >
              <Input maxLength={32} spellCheck={false} />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Row gutter={12}>
        <Col xs={12}>
          <UnitField />
        </Col>
        <Col xs={12}>
          <DecimalsField />
        </Col>
      </Row>
    </>
  );
}

function ModuleItemsTable() {
  const { t } = useTranslation();
  return (
    <ListTable<'moduleItems', ModuleItemForm>
      list="moduleItems"
      text="name"
      matches={(row, q) => row.source.toLowerCase().includes(q)}
      columns={[
        {
          key: 'source',
          title: t('protocols.fields.source'),
          render: (_v, row) => (
            <>
              {t(sourceKey(row.source))}{' '}
              <Typography.Text code>{row.input ? `${row.source}:${row.input}` : row.source}</Typography.Text>
            </>
          ),
        },
        { key: 'unit', title: t('protocols.fields.unit'), dataIndex: 'unit' },
        { key: 'decimals', title: t('protocols.fields.decimals'), dataIndex: 'decimals' },
      ]}
      fields={(_editing, taken) => <ModuleItemFields taken={taken} />}
      toValues={(row) => ({ ...row })}
      newValues={() => ({ source: 'signal.rssi', decimals: 0 })}
      fromValues={(values) => {
        const entry: ModuleItem = {
          key: values.key.trim(),
          name: values.name,
          source: values.source,
          unit: (values.unit ?? '').trim(),
          decimals: values.decimals,
        };
        if (values.source === 'inputs' && values.input) entry.input = values.input.trim();
        return entry;
      }}
    />
  );
}

/** The controller's status points, for reference (they are edited under protocol management). */
function StatusPoints({ detail }: SectionContext) {
  const { t, lang } = useEditor();
  return (
    <Table<ProtocolDetail['moduleStatus'][number]>
      size="small"
      rowKey="key"
      data-testid="status-points"
      dataSource={detail.moduleStatus}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 10, showSizeChanger: true, pageSizeOptions: ['10', '20', '30', '50'] }}
      columns={[
        { key: 'key', title: t('protocols.fields.key'), dataIndex: 'key' },
        { key: 'name', title: t('protocols.fields.name'), render: (_v, row) => row.name[lang] },
        {
          key: 'address',
          title: t('protocols.fields.address'),
          render: (_v, row) => `fc ${row.fc} · ${row.bit === null ? row.address : `${row.address}.${row.bit}`}`,
        },
        { key: 'type', title: t('protocols.fields.type'), dataIndex: 'type' },
        {
          key: 'enum',
          title: t('protocols.fields.enum'),
          render: (_v, row) =>
            row.enum ? row.enum.map((o) => `${o.value} ${o.label[lang]}`).join(' · ') : t('common.none'),
        },
        {
          key: 'alarms',
          title: t('protocols.alarms.tab'),
          render: (_v, row) => row.alarms.join(', ') || t('common.none'),
        },
      ]}
    />
  );
}

function ModuleStatus(ctx: SectionContext) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {t('protocols.moduleItems.title')}
      </Typography.Title>
      <ModuleItemsTable />
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 24 }}>
        {t('protocols.statusPoints.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('protocols.statusPoints.hint')}</Typography.Paragraph>
      <StatusPoints {...ctx} />
    </>
  );
}

export const ModuleStatusPage = sectionScreen('moduleStatus', ModuleStatus);
