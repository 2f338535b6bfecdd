// The latest operations on a set: when, who, what, and how a command ended.
import { List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GensetOperation } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';

const OUTCOME_TONES: Record<string, Tone> = {
  ok: 'green',
  timeout: 'orange',
  offline: 'grey',
  refused: 'red',
  error: 'red',
  failed: 'red',
  notTaken: 'orange',
};

export function OperationLog({ operations }: { operations: GensetOperation[] }) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      dataSource={operations}
      data-testid="operation-log"
      locale={{ emptyText: <Typography.Text type="secondary">{t('gensets.detail.noOperations')}</Typography.Text> }}
      renderItem={(op) => (
        <List.Item>
          <div className="genset-name-cell" style={{ width: '100%' }}>
            <span>
              {op.matter}{' '}
              {op.outcome ? <ToneTag tone={OUTCOME_TONES[op.outcome] ?? 'grey'}>{op.outcomeText}</ToneTag> : null}
            </span>
            <Typography.Text type="secondary" className="genset-sub">
              {formatDateTime(op.time, true)} · {op.nickname || op.account}
            </Typography.Text>
          </div>
        </List.Item>
      )}
    />
  );
}
