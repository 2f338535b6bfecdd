// The latest operations on a set: when, who, what, and how a command ended.
import { List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GensetOperation } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';

const OUTCOME_COLORS: Record<string, string> = {
  ok: 'green',
  timeout: 'orange',
  offline: 'default',
  refused: 'red',
  error: 'red',
};

export function OperationLog({ operations }: { operations: GensetOperation[] }) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      dataSource={operations}
      data-testid="operation-log"
      locale={{ emptyText: t('gensets.detail.noOperations') }}
      renderItem={(op) => (
        <List.Item>
          <div className="genset-name-cell" style={{ width: '100%' }}>
            <span>
              {op.matter}{' '}
              {op.outcome ? (
                <Tag color={OUTCOME_COLORS[op.outcome] ?? 'default'} style={{ marginInlineEnd: 0 }}>
                  {op.outcome in OUTCOME_COLORS ? t(`gensets.outcomes.${op.outcome}`) : op.outcome}
                </Tag>
              ) : null}
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
