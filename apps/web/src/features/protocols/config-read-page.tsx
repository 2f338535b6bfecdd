// /com/module/configRead/{id}: the blocks a configuration read fetches from the controller. Every parameter
// must lie inside one; a block is one Modbus read (at most 125 registers or 2000 bits).
import { Col, Form, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldSpan, maxReadCount, type ConfigParam, type PollBlock } from '@genset/protocol';
import { check } from './document-rules.ts';
import { ReadFcField, RegisterField, useEditor, WordInput } from './editor-fields.tsx';
import { sectionScreen, type SectionContext } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';

interface BlockForm {
  fc: PollBlock['fc'];
  start: number;
  count: number;
}

function inside(block: PollBlock, param: ConfigParam): boolean {
  return (
    block.fc === 3 && block.start <= param.address && param.address + fieldSpan(param.type) <= block.start + block.count
  );
}

function BlockFields() {
  const { t, rules } = useEditor();
  const fc = (Form.useWatch<number | undefined>('fc') ?? 3) as PollBlock['fc'];
  const limit = maxReadCount(fc);
  return (
    <Row gutter={12}>
      <Col xs={24} sm={8}>
        <ReadFcField />
      </Col>
      <Col xs={12} sm={8}>
        <RegisterField name="start" />
      </Col>
      <Col xs={12} sm={8}>
        <Form.Item
          name="count"
          label={t('protocols.fields.count')}
          dependencies={['fc', 'start']}
          extra={t('protocols.hints.readLimit', { limit })}
          rules={[
            ...rules.required,
            { type: 'integer', min: 1, max: limit, message: t('protocols.rules.count', { limit }) },
            check((value, get) => {
              const start = get('start');
              return !(typeof value === 'number' && typeof start === 'number' && start + value > 65536);
            }, t('protocols.rules.pastEnd')),
          ]}
        >
          <WordInput min={1} max={limit} />
        </Form.Item>
      </Col>
    </Row>
  );
}

function ConfigReadTable({ detail, save, canEdit }: SectionContext) {
  const { t } = useTranslation();
  const covered = (block: PollBlock) => detail.configParams.filter((param) => inside(block, param));
  return (
    <SectionTable<PollBlock, BlockForm>
      name="configRead"
      rows={detail.configReadBlocks}
      rowKey={(row) => `${row.fc}-${row.start}-${row.count}`}
      describe={(row) => `fc ${row.fc} · ${row.start}+${row.count}`}
      canEdit={canEdit}
      matches={(row, q) => String(row.start).includes(q) || covered(row).some((param) => param.key.includes(q))}
      columns={[
        { key: 'fc', title: t('protocols.fields.fc'), render: (_v, row) => t(`protocols.fc.${row.fc}`) },
        { key: 'start', title: t('protocols.fields.start'), dataIndex: 'start' },
        { key: 'count', title: t('protocols.fields.count'), dataIndex: 'count' },
        { key: 'end', title: t('protocols.fields.end'), render: (_v, row) => row.start + row.count - 1 },
        {
          key: 'params',
          title: t('protocols.fields.coveredParams'),
          render: (_v, row) =>
            covered(row)
              .map((param) => param.key)
              .join(', ') || t('common.none'),
        },
      ]}
      deleteBlocker={(row) => {
        const others = detail.configReadBlocks.filter((b) => b !== row);
        const orphans = covered(row).filter((param) => !others.some((b) => inside(b, param)));
        return orphans.length > 0
          ? t('protocols.blockers.blockNeeded', { names: orphans.map((p) => p.key).join(', ') })
          : null;
      }}
      fields={() => <BlockFields />}
      toValues={(row) => ({ ...row })}
      newValues={() => ({ fc: 3 })}
      fromValues={(values) => ({ fc: values.fc, start: values.start, count: values.count })}
      onSave={(configReadBlocks) => save({ configReadBlocks })}
      modalWidth={600}
    />
  );
}

export const ConfigReadPage = sectionScreen('configRead', ConfigReadTable);
