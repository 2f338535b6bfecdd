// What a list shows when it has nothing in it.
import type { ReactNode } from 'react';
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';

export function EmptyState({ description, children }: { description?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description ?? t('common.states.empty')}>
      {children}
    </Empty>
  );
}
