// /system/role: the company's roles. A table (search by name, status switch, delete after confirmation) and a
// drawer to create or edit one: its name, the actions and pages it grants (a checkable tree from
// /role/getDataAuthRole), its data scope and, for the custom scope, the company's sets and stations it reaches.
import { useMemo, useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Drawer,
  Flex,
  Form,
  Grid,
  Input,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Tag,
  Tree,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DataScope, PermissionNode, RoleItem } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { usePaging } from '../../components/use-paging.ts';
import { useDataAuth, useDeleteRole, useRoleList, useRoleStatus, useSaveRole } from './roles-api.ts';

interface RoleForm {
  name: string;
  dataScope: DataScope;
  sets: string[];
  sites: string[];
}

function allKeys(nodes: PermissionNode[]): string[] {
  return nodes.flatMap((n) => [n.key, ...allKeys(n.children)]);
}

function RoleDrawer({ role, open, onClose }: { role: RoleItem | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useFormRules();
  const screens = Grid.useBreakpoint();
  const [form] = Form.useForm<RoleForm>();
  const auth = useDataAuth(open);
  const save = useSaveRole();
  const scope = Form.useWatch('dataScope', form);
  const tree = useMemo(() => auth.data?.tree ?? [], [auth.data]);
  const known = useMemo(() => new Set(allKeys(tree)), [tree]);
  const menuLeaves = useMemo(
    () => allKeys(tree.filter((n) => n.key === 'menus')).filter((k) => k.startsWith('menu:')),
    [tree],
  );
  const initialChecked = useMemo(() => {
    if (!role) return [];
    const perms = role.permissions.map((p) => `perm:${p}`);
    const menus = role.menus.includes('*') ? menuLeaves : role.menus.map((m) => `menu:${m}`);
    return [...perms, ...menus].filter((k) => known.has(k));
  }, [role, known, menuLeaves]);
  const [checked, setChecked] = useState<{ checked: string[]; half: string[] } | null>(null);
  const current = checked ?? { checked: initialChecked, half: [] };
  const [treeError, setTreeError] = useState<string | null>(null);

  function close() {
    setChecked(null);
    setTreeError(null);
    onClose();
  }

  async function submit() {
    let values: RoleForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const keys = [...current.checked, ...current.half];
    const permissions = [...new Set(keys.filter((k) => k.startsWith('perm:')).map((k) => k.slice(5)))];
    const chosenMenus = [...new Set(keys.filter((k) => k.startsWith('menu:')).map((k) => k.slice(5)))];
    // every page chosen: the role shows whatever its permissions allow
    const menus = menuLeaves.every((k) => keys.includes(k)) ? [] : chosenMenus;
    const body = {
      name: values.name,
      permissions: permissions as RoleItem['permissions'] as never,
      menus,
      dataScope: values.dataScope,
      sets: values.dataScope === 'custom' ? (values.sets ?? []) : [],
      sites: values.dataScope === 'custom' ? (values.sites ?? []) : [],
    };
    try {
      await save.mutateAsync(role ? { id: role.id, ...body } : body);
      void message.success(t('roles.saved'));
      close();
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      const fields = error.fields;
      if (fields.permissions) setTreeError(fields.permissions);
      const formFields = (['name', 'dataScope', 'sets', 'sites'] as const).filter((f) => fields[f]);
      form.setFields(formFields.map((f) => ({ name: f, errors: [fields[f]!] })));
      if (!fields.permissions && formFields.length === 0) void message.error(error.message);
    }
  }

  return (
    <Drawer
      open={open}
      onClose={close}
      title={role ? t('roles.edit', { name: role.name }) : t('roles.add')}
      width={screens.md ? 560 : '100%'}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={close}>{t('common.actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="role-save">
            {t('common.actions.save')}
          </Button>
        </Space>
      }
    >
      {auth.isError ? (
        <ErrorState onRetry={() => void auth.refetch()} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          name="role"
          requiredMark={false}
          initialValues={{
            name: role?.name ?? '',
            dataScope: role?.dataScope ?? 'department',
            sets: role?.sets ?? [],
            sites: role?.sites ?? [],
          }}
        >
          <Form.Item name="name" label={t('roles.name')} rules={rules.required}>
            <Input maxLength={60} autoFocus data-testid="role-name" />
          </Form.Item>
          <Form.Item
            label={t('roles.permissions')}
            extra={t('roles.permissionsHint')}
            validateStatus={treeError ? 'error' : undefined}
            help={treeError ?? undefined}
          >
            <div className="role-tree" data-testid="role-tree">
              {tree.length > 0 && (
                <Tree
                  checkable
                  selectable={false}
                  defaultExpandedKeys={['actions']}
                  treeData={tree as never}
                  checkedKeys={{ checked: current.checked, halfChecked: current.half }}
                  onCheck={(keys, info) => {
                    setTreeError(null);
                    const list = Array.isArray(keys) ? keys : keys.checked;
                    setChecked({ checked: list.map(String), half: (info.halfCheckedKeys ?? []).map(String) });
                  }}
                />
              )}
            </div>
          </Form.Item>
          <Form.Item name="dataScope" label={t('roles.dataScope')} rules={rules.required}>
            <Radio.Group data-testid="role-scope">
              <Space direction="vertical">
                {(auth.data?.dataScopes ?? []).map((s) => (
                  <Radio key={s.value} value={s.value} data-testid={`scope-${s.value}`}>
                    {s.label}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {scope === 'custom' && (
            <>
              <Form.Item name="sets" label={t('roles.sets')}>
                <Select
                  mode="multiple"
                  allowClear
                  optionFilterProp="label"
                  options={(auth.data?.sets ?? []).map((s) => ({ value: s.token, label: s.name }))}
                />
              </Form.Item>
              <Form.Item name="sites" label={t('roles.sites')}>
                <Select
                  mode="multiple"
                  allowClear
                  optionFilterProp="label"
                  options={(auth.data?.sites ?? []).map((s) => ({ value: s.token, label: s.name }))}
                />
              </Form.Item>
            </>
          )}
        </Form>
      )}
    </Drawer>
  );
}

export function RolesPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const paging = usePaging();
  const [name, setName] = useState('');
  const query = useRoleList({ ...(name ? { name } : {}), page: paging.page, size: paging.size });
  const status = useRoleStatus();
  const remove = useDeleteRole();
  const [editing, setEditing] = useState<{ role: RoleItem | null } | null>(null);
  const screens = Grid.useBreakpoint();

  const nameOf = (r: RoleItem) => (
    <Space size={4} wrap>
      <Typography.Text strong>{r.name}</Typography.Text>
      {r.builtIn && <Tag>{t('roles.builtIn')}</Tag>}
    </Space>
  );
  const statusSwitch = (r: RoleItem) => (
    <Switch
      checked={r.status === 1}
      disabled={r.locked}
      loading={status.isPending && status.variables?.id === r.id}
      aria-label={t('roles.status')}
      onChange={async (on) => {
        await status.mutateAsync({ id: r.id, status: on ? 1 : 0 });
        void message.success(t(on ? 'roles.enabled' : 'roles.disabled'));
      }}
    />
  );
  const actions = (r: RoleItem) => (
    <Space size={0}>
      <Button
        type="text"
        icon={<EditOutlined />}
        disabled={r.locked}
        aria-label={t('roles.editShort')}
        title={t('roles.editShort')}
        onClick={() => setEditing({ role: r })}
      />
      {!r.builtIn && (
        <Popconfirm
          title={t('roles.deleteConfirm', { name: r.name })}
          okText={t('common.actions.confirm')}
          cancelText={t('common.actions.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={async () => {
            await remove.mutateAsync(r.id);
            void message.success(t('roles.deleted'));
          }}
        >
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('roles.delete')}
            title={t('roles.delete')}
          />
        </Popconfirm>
      )}
    </Space>
  );

  const columns: TableColumnsType<RoleItem> = [
    { title: t('roles.name'), dataIndex: 'name', render: (_, r) => nameOf(r) },
    {
      title: t('roles.dataScope'),
      dataIndex: 'dataScope',
      responsive: ['md'],
      render: (v: DataScope) => t(`roles.scope.${v}`),
    },
    { title: t('roles.users'), dataIndex: 'users', width: 90, responsive: ['sm'] },
    { title: t('roles.status'), dataIndex: 'status', width: 100, render: (_, r) => statusSwitch(r) },
    { title: t('roles.actions'), key: 'actions', width: 110, render: (_, r) => actions(r) },
  ];

  // A phone gets one column per role: its name across the row's width (whole words, however long the
  // language's), then its switch, labelled, and its actions.
  const phoneColumns: TableColumnsType<RoleItem> = [
    {
      title: t('roles.name'),
      key: 'role',
      render: (_, r) => (
        <Flex vertical gap={4}>
          {nameOf(r)}
          <Flex align="center" justify="space-between" gap={8}>
            <label>
              <Flex align="center" gap={8}>
                {statusSwitch(r)}
                <Typography.Text type="secondary">{t('roles.status')}</Typography.Text>
              </Flex>
            </label>
            {actions(r)}
          </Flex>
        </Flex>
      ),
    },
  ];

  return (
    <Card>
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('roles.search')}
          style={{ maxWidth: 280 }}
          onSearch={(v) => {
            paging.setPage(1);
            setName(v.trim());
          }}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ role: null })}
          data-testid="role-add"
        >
          {t('roles.add')}
        </Button>
      </Flex>
      <PagedTable<RoleItem>
        query={query}
        paging={paging}
        columns={screens.sm === false ? phoneColumns : columns}
        testId="roles-table"
        label={t('roles.list')}
      />
      <RoleDrawer
        key={editing?.role?.id ?? 'new'}
        role={editing?.role ?? null}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}
