// Deleting sets after a confirmation that names them and says their history is kept; at most 20 at once
// (spec 5: "cannot select more than 20 data").
import { useCallback } from 'react';
import { App as AntApp } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_SELECTED_ITEMS } from '@genset/protocol';
import { useDeleteGensets } from './api.ts';

export function useConfirmDelete() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const remove = useDeleteGensets();

  return useCallback(
    (sets: { token: string; name: string }[], onDone?: () => void) => {
      if (sets.length === 0) return;
      if (sets.length > MAX_SELECTED_ITEMS) {
        void message.error(t('validation.maxSelected', { max: MAX_SELECTED_ITEMS }));
        return;
      }
      const names = sets.map((s) => s.name).join(', ');
      modal.confirm({
        title: t('gensets.delete.title', { count: sets.length }),
        content: t('gensets.delete.content', { names }),
        okText: t('gensets.delete.ok'),
        okButtonProps: { danger: true },
        cancelText: t('common.actions.cancel'),
        onOk: async () => {
          const result = await remove.mutateAsync(sets.map((s) => s.token));
          void message.success(t('gensets.delete.done', { count: result.deleted }));
          onDone?.();
        },
      });
    },
    [message, modal, remove, t],
  );
}
