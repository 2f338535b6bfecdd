// Making or changing a group: its name, its kind (one bus or one site), and its sets in the order the group's
// page shows them. Only sets the user manages are offered; the server checks the rest (one company, a set on
// one bus) and says what it refused.
import { useState } from 'react';
import { App as AntApp, Form, Input, List, Modal, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { GROUP_KINDS, GROUP_NAME_MAX, MAX_GROUP_MEMBERS, type GroupKind, type GroupNavEntry } from '@genset/protocol';
import { orderActions } from '../../components/order-actions.tsx';
import { useManageableSets, useSaveGroup } from './api.ts';

interface Values {
  name: string;
  kind: GroupKind;
}

interface Member {
  token: string;
  name: string;
}

/** Mounted while open (a new mount for each group), so its state starts from the group it edits. */
export function GroupFormDialog({
  group,
  onClose,
}: {
  /** The group to change; none for a new one. */
  group: GroupNavEntry | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<Values>();
  const [members, setMembers] = useState<Member[]>(() =>
    group ? group.sets.map((s) => ({ token: s.token, name: s.name })) : [],
  );
  const [membersError, setMembersError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const sets = useManageableSets(search);
  const save = useSaveGroup();

  async function submit() {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (members.length === 0) {
      setMembersError(t('groups.form.membersRequired'));
      return;
    }
    try {
      await save.mutateAsync({
        ...(group ? { token: group.token } : {}),
        name: values.name,
        kind: values.kind,
        members: members.map((m) => m.token),
      });
      void message.success(t('groups.form.saved'));
      onClose();
    } catch {
      // the request layer has shown the server's reason
    }
  }

  const options = (sets.data ?? [])
    .filter((set) => !members.some((m) => m.token === set.token))
    .map((set) => ({ value: set.token, label: set.number ? `${set.name} (${set.number})` : set.name, name: set.name }));

  return (
    <Modal
      open
      title={group ? t('groups.form.titleEdit', { name: group.name }) : t('groups.form.titleNew')}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'group-save' } as never}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="group-form"
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: group?.name ?? '', kind: group?.kind ?? 'parallel' }}
      >
        <Form.Item
          name="name"
          label={t('groups.form.name')}
          rules={[
            { required: true, whitespace: true, message: t('groups.form.nameRequired') },
            { max: GROUP_NAME_MAX, message: t('validation.tooLong') },
          ]}
        >
          <Input maxLength={GROUP_NAME_MAX} data-testid="group-name-input" />
        </Form.Item>
        <Form.Item name="kind" label={t('groups.form.kind')}>
          <Radio.Group
            options={GROUP_KINDS.map((kind) => ({ value: kind, label: t(`groups.kinds.${kind}`) }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item
          label={t('groups.form.members')}
          extra={t('groups.form.membersHint')}
          validateStatus={membersError ? 'error' : undefined}
          help={membersError ?? undefined}
        >
          <Select
            showSearch
            value={null}
            placeholder={t('groups.form.add')}
            filterOption={false}
            onSearch={setSearch}
            loading={sets.isFetching}
            disabled={members.length >= MAX_GROUP_MEMBERS}
            options={options}
            onChange={(token: string | null) => {
              const set = options.find((o) => o.value === token);
              if (!set) return;
              setMembers((list) => [...list, { token: set.value, name: set.name }]);
              setMembersError(null);
            }}
            data-testid="group-add-set"
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Typography.Text type="secondary">{t('groups.form.order')}</Typography.Text>
        <List
          size="small"
          bordered
          dataSource={members}
          locale={{ emptyText: t('groups.form.noMembers') }}
          data-testid="group-members"
          renderItem={(member, index) => (
            <List.Item
              actions={orderActions({
                index,
                count: members.length,
                setList: setMembers,
                labels: {
                  up: t('groups.form.up', { name: member.name }),
                  down: t('groups.form.down', { name: member.name }),
                  remove: t('groups.form.remove', { name: member.name }),
                },
              })}
            >
              {index + 1}. {member.name}
            </List.Item>
          )}
        />
      </Form>
    </Modal>
  );
}
