// The buttons of a table row: an icon with a tooltip that does one thing, and delete after a confirmation.
import type { ReactNode } from 'react';
import { Button, Popconfirm, Tooltip } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** An icon button with its action's name as tooltip; `label` names it with its row for screen readers. */
export function IconAction(props: { title: string; label: string; icon: ReactNode; onClick: () => void }) {
  return (
    <Tooltip title={props.title}>
      <Button type="text" icon={props.icon} aria-label={props.label} onClick={props.onClick} />
    </Tooltip>
  );
}

/** Delete, once confirmed (`confirm`: the question, naming the row); `label` names it with its row. */
export function DeleteAction(props: { title: string; confirm: string; label: string; onConfirm: () => unknown }) {
  const { t } = useTranslation();
  return (
    <Popconfirm
      title={props.title}
      description={props.confirm}
      okText={t('protocols.table.delete')}
      okButtonProps={{ danger: true }}
      cancelText={t('common.actions.cancel')}
      onConfirm={props.onConfirm}
    >
      {/* A plain title: a tooltip would sit on top of the confirmation's buttons. */}
      <Button
        type="text"
        danger
        icon={<DeleteOutlined />}
        title={t('protocols.table.delete')}
        aria-label={props.label}
      />
    </Popconfirm>
  );
}
