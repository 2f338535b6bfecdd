// Choosing the items of the realdata tab and their order (this user, this set): add from the set's items
// grouped as on the page, move up and down, remove; at most the server's limit (spec 5). Saving sends the
// whole list; "default" goes back to the protocol's choice.
import { useState } from 'react';
import { App as AntApp, Button, Flex, Form, List, Modal, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/request.ts';
import { withUnit } from '../../components/format.ts';
import { orderActions } from '../../components/order-actions.tsx';
import { useEditSelection, useResetSelection, type ItemSelection } from './api.ts';
import { groupRank } from './item-value.ts';

export interface ItemSelectionDialogProps {
  token: string;
  selection: ItemSelection;
  open: boolean;
  onClose: () => void;
}

export function ItemSelectionDialog({ token, selection, open, onClose }: ItemSelectionDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [chosen, setChosen] = useState<string[]>(() => selection.items.map((item) => item.key));
  const [error, setError] = useState<string | null>(null);
  const edit = useEditSelection(token);
  const reset = useResetSelection(token);
  const byKey = new Map(selection.available.map((item) => [item.key, item]));
  const full = chosen.length >= selection.max;

  const groups = [...new Set(selection.available.map((item) => item.group))].sort(
    (a, b) => groupRank(a) - groupRank(b),
  );
  const options = groups.map((group) => ({
    label: t(`live.groups.${group}`, { defaultValue: group }),
    title: group,
    options: selection.available
      .filter((item) => item.group === group && !chosen.includes(item.key))
      .map((item) => ({ value: item.key, label: withUnit(item.name, item.unit) })),
  }));

  async function save() {
    if (chosen.length === 0) {
      setError(t('live.realdata.atLeastOne'));
      return;
    }
    try {
      await edit.mutateAsync(chosen);
      void message.success(t('common.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError) setError(err.fields.items ?? err.message);
    }
  }

  async function restoreDefault() {
    try {
      await reset.mutateAsync();
      void message.success(t('live.realdata.resetDone'));
      onClose();
    } catch {
      // the request layer has shown why
    }
  }

  return (
    <Modal
      open={open}
      title={t('live.realdata.chooseTitle')}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      data-testid="item-selection"
      footer={
        <Flex justify="space-between" wrap gap={8}>
          <Button onClick={() => void restoreDefault()} loading={reset.isPending} data-testid="selection-default">
            {t('live.realdata.restoreDefault')}
          </Button>
          <Space>
            <Button onClick={onClose}>{t('common.actions.cancel')}</Button>
            <Button type="primary" onClick={() => void save()} loading={edit.isPending} data-testid="selection-save">
              {t('common.actions.save')}
            </Button>
          </Space>
        </Flex>
      }
    >
      <Form layout="vertical">
        <Form.Item
          label={t('live.realdata.addItem')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? (full ? t('live.realdata.maxItems', { max: selection.max }) : undefined)}
        >
          <Select
            showSearch
            value={null}
            placeholder={t('live.realdata.addPlaceholder')}
            options={options}
            optionFilterProp="label"
            disabled={full}
            onChange={(key: string | null) => {
              if (!key) return;
              setError(null);
              setChosen((list) => (list.includes(key) || list.length >= selection.max ? list : [...list, key]));
            }}
            data-testid="selection-add"
          />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">
        {t('live.realdata.count', { count: chosen.length, max: selection.max })}
      </Typography.Text>
      <List
        size="small"
        bordered
        style={{ marginTop: 8, maxHeight: '50vh', overflowY: 'auto' }}
        dataSource={chosen}
        locale={{ emptyText: t('live.realdata.atLeastOne') }}
        renderItem={(key, index) => {
          const item = byKey.get(key);
          const name = item ? withUnit(item.name, item.unit) : key;
          return (
            <List.Item
              data-testid="selection-item"
              actions={orderActions({
                index,
                count: chosen.length,
                setList: setChosen,
                labels: {
                  up: t('live.realdata.moveUp', { item: name }),
                  down: t('live.realdata.moveDown', { item: name }),
                  remove: t('live.realdata.remove', { item: name }),
                },
              })}
            >
              <Typography.Text ellipsis>
                {index + 1}. {name}
              </Typography.Text>
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}
