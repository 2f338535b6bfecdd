// /system/user: the company's people. Search by account or nickname, filter by department, role, status and
// account type; add (account, nickname, account type, department, role, temporary password) and edit; enable and
// disable with a switch; set a temporary password; remove from the company after confirmation. A table on wide
// screens, the same table with fewer columns on phones.
import { useMemo, useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Form,
  Grid,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  TreeSelect,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TYPES, USER_STATUSES, type AccountType, type UserItem, type UserStatus } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { formatDateTime } from '../../components/format.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { usePaging } from '../../components/use-paging.ts';
import { useSession } from '../../stores/session.ts';
import { useDepartmentTree } from './department-api.ts';
import { departmentOptions } from './department-page.tsx';
import {
  useDeleteUser,
  useResetPassword,
  useRoleOptions,
  useSaveUser,
  useUserStatus,
  useUsers,
  type UserFilters,
} from './user-api.ts';

interface UserValues {
  account: string;
  nickname: string;
  type: AccountType;
  departmentId: number | null;
  roleId: number;
  password: string;
}

/** A refusal the server tied to no field of the form is shown as a message. */
function showRefusal(form: Parameters<typeof applyServerErrors>[0], error: unknown, fallback: (text: string) => void) {
  applyServerErrors(form, error);
  if (error instanceof ApiError && Object.keys(error.fields).length === 0) fallback(error.message);
}

function UserDialog({ user, open, onClose }: { user: UserItem | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useFormRules();
  const [form] = Form.useForm<UserValues>();
  const save = useSaveUser();
  const departments = useDepartmentTree();
  const roles = useRoleOptions();

  async function submit() {
    let values: UserValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      if (user) {
        await save.mutateAsync({
          userId: user.id,
          nickname: values.nickname,
          type: values.type,
          departmentId: values.departmentId ?? null,
          roleId: values.roleId,
        });
      } else {
        await save.mutateAsync({ ...values, departmentId: values.departmentId ?? null });
      }
      void message.success(t(user ? 'common.saved' : 'admin.user.added'));
      onClose();
    } catch (error) {
      showRefusal(form, error, (text) => void message.error(text));
    }
  }

  return (
    <Modal
      open={open}
      title={t(user ? 'admin.user.edit' : 'admin.user.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<UserValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        name="user"
        initialValues={
          user
            ? {
                account: user.account,
                nickname: user.nickname,
                type: user.type,
                departmentId: user.departmentId,
                roleId: user.roleId ?? undefined,
              }
            : { type: 'corporate', departmentId: null }
        }
      >
        <Form.Item name="account" label={t('admin.user.account')} rules={user ? [] : rules.username}>
          <Input disabled={!!user} maxLength={254} autoComplete="off" />
        </Form.Item>
        <Form.Item name="nickname" label={t('admin.user.nickname')}>
          <Input maxLength={40} disabled={!!user && !user.home} />
        </Form.Item>
        <Form.Item name="type" label={t('admin.user.type')}>
          <Select
            disabled={!!user && !user.home}
            options={ACCOUNT_TYPES.map((v) => ({ value: v, label: t(`admin.user.types.${v}`) }))}
          />
        </Form.Item>
        <Form.Item name="departmentId" label={t('admin.user.department')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            placeholder={t('admin.user.noDepartment')}
            treeData={departmentOptions(departments.data ?? [])}
          />
        </Form.Item>
        <Form.Item
          name="roleId"
          label={t('admin.user.role')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Select options={roles.data ?? []} loading={roles.isLoading} />
        </Form.Item>
        {user ? null : (
          <Form.Item
            name="password"
            label={t('admin.user.temporaryPassword')}
            rules={rules.newPassword}
            extra={t('admin.user.temporaryHint')}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: UserItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useFormRules();
  const [form] = Form.useForm<{ password: string }>();
  const reset = useResetPassword();

  async function submit() {
    if (!user) return;
    let values: { password: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await reset.mutateAsync({ userId: user.id, password: values.password });
      void message.success(t('admin.user.passwordSet'));
      onClose();
    } catch (error) {
      showRefusal(form, error, (text) => form.setFields([{ name: 'password', errors: [text] }]));
    }
  }

  return (
    <Modal
      open={user !== null}
      title={t('admin.user.resetTitle', { name: user?.nickname || user?.account || '' })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={reset.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('admin.user.resetHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} name="reset-password">
        <Form.Item name="password" label={t('admin.user.temporaryPassword')} rules={rules.newPassword}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function UserPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const screens = Grid.useBreakpoint();
  const me = useSession((s) => s.user?.id);
  const paging = usePaging();
  const [filters, setFilters] = useState<UserFilters>({});
  const [editing, setEditing] = useState<UserItem | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [resetting, setResetting] = useState<UserItem | null>(null);
  const query = useUsers(paging.page, paging.size, filters);
  const departments = useDepartmentTree();
  const roles = useRoleOptions();
  const status = useUserStatus();
  const remove = useDeleteUser();
  const departmentTree = useMemo(() => departmentOptions(departments.data ?? []), [departments.data]);

  const filter = (patch: Partial<UserFilters>) => {
    paging.setPage(1);
    setFilters((f) => ({ ...f, ...patch }));
  };

  const columns: TableColumnsType<UserItem> = [
    {
      title: t('admin.user.account'),
      dataIndex: 'account',
      render: (_v, u) => (
        <Space direction="vertical" size={0}>
          <span>{u.nickname || u.account}</span>
          {u.nickname ? <Typography.Text type="secondary">{u.account}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: t('admin.user.department'), dataIndex: 'departmentName', responsive: ['md'], render: (v) => v ?? '—' },
    { title: t('admin.user.role'), dataIndex: 'roleName', responsive: ['sm'], render: (v) => v ?? '—' },
    {
      title: t('admin.user.type'),
      dataIndex: 'type',
      responsive: ['lg'],
      render: (v: AccountType) => t(`admin.user.types.${v}`),
    },
    {
      title: t('admin.user.status'),
      dataIndex: 'status',
      render: (v: UserStatus, u) => (
        <Switch
          size="small"
          checked={v === 'enabled'}
          disabled={u.id === me || !u.home}
          loading={status.isPending && status.variables?.userId === u.id}
          aria-label={t('admin.user.enabled')}
          checkedChildren={screens.md ? t('admin.user.statuses.enabled') : undefined}
          unCheckedChildren={screens.md ? t('admin.user.statuses.disabled') : undefined}
          onChange={async (on) => {
            await status.mutateAsync({ userId: u.id, status: on ? 'enabled' : 'disabled' });
            void message.success(t(on ? 'admin.user.enabledDone' : 'admin.user.disabledDone'));
          }}
        />
      ),
    },
    {
      title: t('admin.user.created'),
      dataIndex: 'createdAt',
      responsive: ['xl'],
      render: (v: number) => formatDateTime(v),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      render: (_v, u) => (
        <Space wrap size={4}>
          <Button
            size="small"
            icon={<EditOutlined />}
            aria-label={t('admin.edit')}
            onClick={() => {
              setEditing(u);
              setDialogOpen(true);
            }}
          >
            {screens.md ? t('admin.edit') : null}
          </Button>
          <Button
            size="small"
            icon={<KeyOutlined />}
            disabled={!u.home}
            aria-label={t('admin.user.reset')}
            onClick={() => setResetting(u)}
          >
            {screens.md ? t('admin.user.reset') : null}
          </Button>
          <Popconfirm
            title={t('admin.user.deleteConfirm', { name: u.nickname || u.account })}
            okText={t('common.actions.confirm')}
            cancelText={t('common.actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={async () => {
              await remove.mutateAsync(u.id);
              void message.success(t('admin.user.removed'));
            }}
          >
            <Button size="small" danger icon={<DeleteOutlined />} disabled={u.id === me} aria-label={t('admin.delete')}>
              {screens.md ? t('admin.delete') : null}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16, width: '100%' }}>
        <Input.Search
          allowClear
          placeholder={t('admin.user.search')}
          aria-label={t('admin.user.search')}
          style={{ width: screens.md ? 240 : '100%' }}
          onSearch={(value) => filter({ search: value.trim() || undefined })}
        />
        <TreeSelect
          allowClear
          treeDefaultExpandAll
          placeholder={t('admin.user.department')}
          aria-label={t('admin.user.department')}
          style={{ width: screens.md ? 180 : '100%' }}
          treeData={departmentTree}
          onChange={(v?: number) => filter({ departmentId: v ?? undefined })}
        />
        <Select
          allowClear
          placeholder={t('admin.user.role')}
          aria-label={t('admin.user.role')}
          style={{ width: screens.md ? 160 : '100%' }}
          options={(roles.data ?? []).map(({ value, label }) => ({ value, label }))}
          onChange={(v?: number) => filter({ roleId: v ?? undefined })}
        />
        <Select
          allowClear
          placeholder={t('admin.user.status')}
          aria-label={t('admin.user.status')}
          style={{ width: screens.md ? 130 : '100%' }}
          options={USER_STATUSES.map((v) => ({ value: v, label: t(`admin.user.statuses.${v}`) }))}
          onChange={(v?: UserStatus) => filter({ status: v ?? undefined })}
        />
        <Select
          allowClear
          placeholder={t('admin.user.type')}
          aria-label={t('admin.user.type')}
          // as wide as its placeholder, however long the language's name for an account type
          style={screens.md ? { minWidth: 140 } : { width: '100%' }}
          options={ACCOUNT_TYPES.map((v) => ({ value: v, label: t(`admin.user.types.${v}`) }))}
          onChange={(v?: AccountType) => filter({ type: v ?? undefined })}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
        >
          {t('admin.user.add')}
        </Button>
      </Space>
      {query.error ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<UserItem>
          rowKey="id"
          size={screens.md ? 'middle' : 'small'}
          loading={query.isFetching}
          columns={columns}
          dataSource={query.data?.list ?? []}
          pagination={paging.pagination(query.data?.total ?? 0)}
          scroll={{ x: true }}
        />
      )}
      <UserDialog user={editing} open={dialogOpen} onClose={() => setDialogOpen(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </Card>
  );
}
