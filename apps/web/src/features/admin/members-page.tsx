// /system/member: people joining the company. The applications tab lists who applied through an invitation
// (status, when applied and reviewed, nickname, account and its type, the invitation code), approved with a
// role and department of the company or rejected; the invitations tab creates links (expiry, uses, the role
// and department proposed), lists them with their use counts, a QR code and the link to copy, and revokes them.
import { useState, type ReactNode } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  DatePicker,
  Flex,
  Form,
  Grid,
  InputNumber,
  Modal,
  Popconfirm,
  Popover,
  QRCode,
  Segmented,
  Select,
  Space,
  Tabs,
  Tag,
  TreeSelect,
  Typography,
} from 'antd';
import type { FormInstance, FormRule, TableColumnsType } from 'antd';
import {
  CheckOutlined,
  CloseOutlined,
  CopyOutlined,
  PlusOutlined,
  QrcodeOutlined,
  StopOutlined,
} from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { V, type ApplicationStatus, type DepartmentNode, type InviteItem, type MemberItem } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { IconButton } from '../../components/icon-button.tsx';
import { PagedTable } from '../../components/paged-table.tsx';
import { formatDateTime } from '../../components/format.ts';
import { usePaging } from '../../components/use-paging.ts';
import { useDepartmentTree } from './department-api.ts';
import {
  inviteUrl,
  useAuditMember,
  useCreateInvite,
  useInvites,
  useMembers,
  useRevokeInvite,
  useRoleList,
} from './roles-api.ts';

/** A choice that must be made (a date, a number, an option): not text, so no whitespace check. */
function useNeeded(): FormRule[] {
  const { t } = useTranslation();
  return [{ required: true, message: t(V.required) }];
}

const STATUS_COLOURS: Record<ApplicationStatus, string> = { pending: 'gold', approved: 'green', rejected: 'red' };
const STATE_COLOURS: Record<InviteItem['state'], string> = {
  active: 'green',
  expired: 'default',
  revoked: 'red',
  usedUp: 'default',
};

interface TreeOption {
  title: string;
  value: number;
  children: TreeOption[];
}
function departmentOptions(nodes: DepartmentNode[]): TreeOption[] {
  return nodes.map((n) => ({ title: n.name, value: n.id, children: departmentOptions(n.children) }));
}

/** The company's enabled roles and its departments, for the choices of a role and a department. */
function useChoices() {
  const roles = useRoleList({ status: '1', page: 1, size: 50 });
  const departments = useDepartmentTree();
  return {
    roles: (roles.data?.list ?? [])
      .filter((r) => r.roleKey !== 'platformAdmin')
      // a role beyond what the caller holds is shown but cannot be chosen (the server would refuse it)
      .map((r) => ({ value: r.id, label: r.name, disabled: !r.assignable })),
    departments: departmentOptions(departments.data ?? []),
  };
}

/**
 * A dialog of this page around one form (`name` prefixes its fields' ids): OK checks the form and saves; the
 * server's refusals of `fields` show beside them, any other as a message.
 */
function MemberDialog<V extends object>({
  form,
  name,
  open,
  title,
  okText,
  saving,
  fields,
  onSave,
  onClose,
  initialValues,
  children,
}: {
  form: FormInstance<V>;
  name: string;
  open: boolean;
  title: string;
  okText: string;
  saving: boolean;
  fields: (keyof V & string)[];
  onSave: (values: V) => Promise<void>;
  onClose: () => void;
  initialValues: Partial<V>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  async function submit() {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await onSave(values);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      const refused = fields.filter((f) => error.fields[f]);
      if (refused.length)
        (form as FormInstance).setFields(refused.map((f) => ({ name: f, errors: [error.fields[f]!] })));
      else void message.error(error.message);
    }
  }
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={okText}
      cancelText={t('common.actions.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': `${name}-ok` } as never}
    >
      <Form form={form} layout="vertical" name={name} requiredMark={false} initialValues={initialValues}>
        {children}
      </Form>
    </Modal>
  );
}

interface ApproveValues {
  roleId: number;
  departmentId?: number;
}

interface InviteValues {
  expiresAt: Dayjs;
  maxUses: number;
  roleId?: number;
  departmentId?: number;
}

function ApproveDialog({ member, onClose }: { member: MemberItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const needed = useNeeded();
  const [form] = Form.useForm<ApproveValues>();
  const choices = useChoices();
  const audit = useAuditMember();

  return (
    <MemberDialog<ApproveValues>
      form={form}
      name="approve"
      open={member !== null}
      title={t('members.approveTitle', { name: member?.nickname || member?.account || '' })}
      okText={t('members.approve')}
      saving={audit.isPending}
      fields={['roleId', 'departmentId']}
      onSave={async (values) => {
        if (!member) return;
        await audit.mutateAsync({
          id: member.id,
          action: 'approve',
          roleId: values.roleId,
          departmentId: values.departmentId ?? null,
        });
        void message.success(t('members.approvedOk'));
        onClose();
      }}
      onClose={onClose}
      initialValues={{ roleId: member?.roleId ?? undefined, departmentId: member?.departmentId ?? undefined }}
    >
      <Form.Item name="roleId" label={t('members.role')} rules={needed}>
        <Select options={choices.roles} data-testid="approve-role" showSearch optionFilterProp="label" />
      </Form.Item>
      <Form.Item name="departmentId" label={t('members.department')}>
        <TreeSelect allowClear treeDefaultExpandAll treeData={choices.departments} data-testid="approve-department" />
      </Form.Item>
    </MemberDialog>
  );
}

function Applications() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const paging = usePaging();
  const [status, setStatus] = useState<ApplicationStatus | 'all'>('pending');
  const query = useMembers({ ...(status === 'all' ? {} : { status }), page: paging.page, size: paging.size });
  const audit = useAuditMember();
  const [approving, setApproving] = useState<MemberItem | null>(null);

  const columns: TableColumnsType<MemberItem> = [
    {
      title: t('members.person'),
      key: 'person',
      render: (_, m) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{m.nickname || '—'}</Typography.Text>
          <Typography.Text type="secondary">{m.account}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('members.accountType'),
      dataIndex: 'accountType',
      responsive: ['md'],
      render: (v: string) => t(`members.accountTypes.${v === 'corporate' ? 'corporate' : 'personal'}`),
    },
    { title: t('members.inviteCode'), dataIndex: 'inviteCode', responsive: ['lg'] },
    {
      title: t('members.status'),
      dataIndex: 'status',
      render: (v: ApplicationStatus) => <Tag color={STATUS_COLOURS[v]}>{t(`members.statuses.${v}`)}</Tag>,
    },
    {
      title: t('members.appliedAt'),
      dataIndex: 'appliedAt',
      responsive: ['sm'],
      render: (v: number) => formatDateTime(v),
    },
    {
      title: t('members.reviewedAt'),
      dataIndex: 'reviewedAt',
      responsive: ['md'],
      render: (v: number | null) => (v ? formatDateTime(v) : '—'),
    },
    {
      title: t('members.review'),
      key: 'review',
      render: (_, m) =>
        m.status === 'pending' ? (
          <Space size={4} wrap>
            <Button size="small" type="primary" icon={<CheckOutlined />} onClick={() => setApproving(m)}>
              {t('members.approve')}
            </Button>
            <Popconfirm
              title={t('members.rejectConfirm', { name: m.nickname || m.account })}
              okText={t('common.actions.confirm')}
              cancelText={t('common.actions.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                await audit.mutateAsync({ id: m.id, action: 'reject' });
                void message.success(t('members.rejectedOk'));
              }}
            >
              <Button size="small" danger icon={<CloseOutlined />}>
                {t('members.reject')}
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          <Typography.Text type="secondary">
            {[m.roleName, m.departmentName].filter(Boolean).join(' · ') || '—'}
          </Typography.Text>
        ),
    },
  ];

  return (
    <>
      <Segmented
        style={{ marginBottom: 16 }}
        value={status}
        onChange={(v) => {
          paging.setPage(1);
          setStatus(v as ApplicationStatus | 'all');
        }}
        options={[
          { value: 'pending', label: t('members.statuses.pending') },
          { value: 'approved', label: t('members.statuses.approved') },
          { value: 'rejected', label: t('members.statuses.rejected') },
          { value: 'all', label: t('members.statuses.all') },
        ]}
      />
      <PagedTable<MemberItem>
        query={query}
        paging={paging}
        columns={columns}
        testId="members-table"
        label={t('members.applications')}
      />
      <ApproveDialog key={approving?.id ?? 0} member={approving} onClose={() => setApproving(null)} />
    </>
  );
}

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const needed = useNeeded();
  const [form] = Form.useForm<InviteValues>();
  const choices = useChoices();
  const create = useCreateInvite();

  return (
    <MemberDialog<InviteValues>
      form={form}
      name="invite"
      open={open}
      title={t('members.inviteCreate')}
      okText={t('members.inviteCreate')}
      saving={create.isPending}
      fields={['expiresAt', 'maxUses', 'roleId', 'departmentId']}
      onSave={async (values) => {
        await create.mutateAsync({
          expiresAt: values.expiresAt.valueOf(),
          maxUses: values.maxUses,
          roleId: values.roleId ?? null,
          departmentId: values.departmentId ?? null,
        });
        void message.success(t('members.inviteCreated'));
        onClose();
      }}
      onClose={onClose}
      initialValues={{ expiresAt: dayjs().add(7, 'day').endOf('day'), maxUses: 10 }}
    >
      <Form.Item name="expiresAt" label={t('members.expiresAt')} rules={needed}>
        <DatePicker
          showTime
          style={{ width: '100%' }}
          disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
          data-testid="invite-expiry"
        />
      </Form.Item>
      <Form.Item name="maxUses" label={t('members.maxUses')} rules={needed}>
        <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} data-testid="invite-uses" />
      </Form.Item>
      <Form.Item name="roleId" label={t('members.proposedRole')}>
        <Select allowClear options={choices.roles} data-testid="invite-role" showSearch optionFilterProp="label" />
      </Form.Item>
      <Form.Item name="departmentId" label={t('members.proposedDepartment')}>
        <TreeSelect allowClear treeDefaultExpandAll treeData={choices.departments} data-testid="invite-department" />
      </Form.Item>
    </MemberDialog>
  );
}

function InviteLink({ invite }: { invite: InviteItem }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const url = inviteUrl(invite.code);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      void message.success(t('members.copied'));
    } catch {
      void message.info(url);
    }
  }
  return (
    <Space size={4} wrap>
      <Typography.Text code copyable={false} data-testid="invite-link">
        {url}
      </Typography.Text>
      <IconButton icon={<CopyOutlined />} label={t('members.copy')} onClick={() => void copy()} />
      <Popover
        trigger="click"
        content={
          <Flex vertical align="center" gap={8}>
            <QRCode value={url} size={180} bordered={false} data-testid="invite-qr" />
            <Typography.Text type="secondary">{invite.code}</Typography.Text>
          </Flex>
        }
      >
        <IconButton icon={<QrcodeOutlined />} label={t('members.qr')} />
      </Popover>
    </Space>
  );
}

function Invitations() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const paging = usePaging();
  const query = useInvites({ page: paging.page, size: paging.size });
  const revoke = useRevokeInvite();
  const [creating, setCreating] = useState(false);

  const columns: TableColumnsType<InviteItem> = [
    { title: t('members.link'), key: 'link', render: (_, i) => <InviteLink invite={i} /> },
    {
      title: t('members.proposed'),
      key: 'proposed',
      responsive: ['md'],
      render: (_, i) => [i.roleName, i.departmentName].filter(Boolean).join(' · ') || '—',
    },
    { title: t('members.uses'), key: 'uses', render: (_, i) => `${i.uses} / ${i.maxUses}` },
    {
      title: t('members.expiresAt'),
      dataIndex: 'expiresAt',
      responsive: ['sm'],
      render: (v: number) => formatDateTime(v),
    },
    {
      title: t('members.state'),
      dataIndex: 'state',
      render: (v: InviteItem['state']) => <Tag color={STATE_COLOURS[v]}>{t(`members.states.${v}`)}</Tag>,
    },
    {
      title: t('members.actions'),
      key: 'actions',
      render: (_, i) =>
        i.state === 'active' ? (
          <Popconfirm
            title={t('members.revokeConfirm')}
            okText={t('common.actions.confirm')}
            cancelText={t('common.actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={async () => {
              await revoke.mutateAsync(i.id);
              void message.success(t('members.revokedOk'));
            }}
          >
            <Button size="small" danger icon={<StopOutlined />}>
              {t('members.revoke')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="invite-add">
          {t('members.inviteCreate')}
        </Button>
      </Flex>
      <PagedTable<InviteItem>
        query={query}
        paging={paging}
        columns={columns}
        testId="invites-table"
        label={t('members.invitations')}
      />
      <InviteDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

export function MembersPage() {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  return (
    <Card>
      {/* each tab reads its list again when shown: applications arrive while the page is open */}
      <Tabs
        destroyOnHidden
        size={screens.sm ? 'middle' : 'small'}
        items={[
          { key: 'applications', label: t('members.applications'), children: <Applications /> },
          { key: 'invitations', label: t('members.invitations'), children: <Invitations /> },
        ]}
      />
    </Card>
  );
}
