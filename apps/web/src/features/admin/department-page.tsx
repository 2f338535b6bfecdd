// /system/dept: the company's department tree with the number of people of each department. Those who manage
// departments add a department (at the top or below one), rename it, move it (dragging it in the tree, or
// "Move to" choosing its new parent) and delete it after confirmation; the server refuses a move into the
// department's own branch and deleting one that still has people or departments below.
import { useMemo, useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Tag,
  Tree,
  TreeSelect,
  Typography,
} from 'antd';
import type { TreeDataNode } from 'antd';
import { ApartmentOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Permission, type DepartmentNode } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { IconButton } from '../../components/icon-button.tsx';
import { useFormRules } from '../../components/form-rules.ts';
import { useAuthorized } from '../../components/use-authorized.ts';
import {
  branchIds,
  useAddDepartment,
  useDeleteDepartment,
  useDepartmentTree,
  useUpdateDepartment,
} from './department-api.ts';

type Editing =
  | { kind: 'add'; parent: DepartmentNode | null }
  | { kind: 'rename'; node: DepartmentNode }
  | { kind: 'move'; node: DepartmentNode };

/** The tree as TreeSelect options; `without` (a branch) cannot be chosen. */
export function departmentOptions(nodes: DepartmentNode[], without: number[] = []): TreeDataNode[] {
  return nodes.map((n) => ({
    title: n.name,
    value: n.id,
    key: n.id,
    disabled: without.includes(n.id),
    children: departmentOptions(n.children, without),
  })) as TreeDataNode[];
}

function findNode(nodes: DepartmentNode[], id: number): DepartmentNode | null {
  for (const n of nodes) {
    if (n.id === id) return n;
    const found = findNode(n.children, id);
    if (found) return found;
  }
  return null;
}

function DepartmentDialog({
  editing,
  tree,
  onClose,
}: {
  editing: Editing | null;
  tree: DepartmentNode[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const rules = useFormRules();
  const [form] = Form.useForm<{ name: string; parentId: number | null }>();
  const add = useAddDepartment();
  const update = useUpdateDepartment();

  async function submit() {
    if (!editing) return;
    let values: { name: string; parentId: number | null };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      if (editing.kind === 'add')
        await add.mutateAsync({ name: values.name, parentId: editing.parent?.id ?? null, sort: 0 });
      else if (editing.kind === 'rename') await update.mutateAsync({ id: editing.node.id, name: values.name });
      else await update.mutateAsync({ id: editing.node.id, parentId: values.parentId ?? null });
      void message.success(t('common.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        const field = editing.kind === 'move' ? 'parentId' : 'name';
        form.setFields([{ name: field, errors: [Object.values(error.fields)[0] ?? error.message] }]);
      }
    }
  }

  const title =
    editing?.kind === 'add'
      ? editing.parent
        ? t('admin.department.addChildOf', { name: editing.parent.name })
        : t('admin.department.add')
      : editing?.kind === 'rename'
        ? t('admin.department.rename')
        : t('admin.department.moveTitle', { name: editing?.node.name ?? '' });

  return (
    <Modal
      open={editing !== null}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={add.isPending || update.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        name="department"
        initialValues={{
          name: editing?.kind === 'rename' ? editing.node.name : '',
          parentId: editing?.kind === 'move' ? editing.node.parentId : null,
        }}
      >
        {editing?.kind === 'move' ? (
          <Form.Item name="parentId" label={t('admin.department.parent')} extra={t('admin.department.parentHint')}>
            <TreeSelect
              allowClear
              treeDefaultExpandAll
              placeholder={t('admin.department.top')}
              treeData={departmentOptions(tree, branchIds(editing.node))}
            />
          </Form.Item>
        ) : (
          <Form.Item name="name" label={t('admin.department.name')} rules={rules.required}>
            <Input maxLength={60} autoFocus />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

export function DepartmentPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const authorized = useAuthorized();
  const canManage = authorized([Permission.departmentManage]);
  const query = useDepartmentTree();
  const update = useUpdateDepartment();
  const remove = useDeleteDepartment();
  const [editing, setEditing] = useState<Editing | null>(null);
  const tree = useMemo(() => query.data ?? [], [query.data]);

  const treeData = useMemo(() => {
    const build = (nodes: DepartmentNode[]): TreeDataNode[] =>
      nodes.map((n) => ({
        key: n.id,
        title: (
          <Space size={4} wrap className="department-node" data-testid={`department-${n.name}`}>
            <Typography.Text>{n.name}</Typography.Text>
            <Tag>{t('admin.department.people', { count: n.users })}</Tag>
            {canManage ? (
              <>
                <IconButton
                  icon={<PlusOutlined />}
                  label={t('admin.department.addChild')}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing({ kind: 'add', parent: n });
                  }}
                />
                <IconButton
                  icon={<EditOutlined />}
                  label={t('admin.department.rename')}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing({ kind: 'rename', node: n });
                  }}
                />
                <IconButton
                  icon={<SwapOutlined />}
                  label={t('admin.department.move')}
                  onClick={(e) => {
                    e.stopPropagation();
                    setEditing({ kind: 'move', node: n });
                  }}
                />
                <Popconfirm
                  title={t('admin.department.deleteConfirm', { name: n.name })}
                  okText={t('common.actions.confirm')}
                  cancelText={t('common.actions.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await remove.mutateAsync(n.id);
                    void message.success(t('admin.department.deleted'));
                  }}
                >
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('admin.delete')}
                    title={t('admin.delete')}
                    onClick={(e) => e.stopPropagation()}
                  />
                </Popconfirm>
              </>
            ) : null}
          </Space>
        ),
        children: build(n.children),
      }));
    return build(tree);
  }, [tree, canManage, t, remove, message]);

  if (query.error) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;

  return (
    <Card
      title={
        <Space>
          <ApartmentOutlined />
          {t('admin.department.title')}
        </Space>
      }
      extra={
        canManage ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'add', parent: null })}>
            {t('admin.department.add')}
          </Button>
        ) : null
      }
      loading={query.isLoading}
    >
      {tree.length === 0 ? (
        <EmptyState description={t('admin.department.empty')} />
      ) : (
        <>
          {canManage ? (
            <Typography.Paragraph type="secondary">{t('admin.department.dragHint')}</Typography.Paragraph>
          ) : null}
          <Tree
            blockNode
            defaultExpandAll
            selectable={false}
            draggable={canManage ? { icon: false } : false}
            treeData={treeData}
            onDrop={async (info) => {
              const dragged = findNode(tree, Number(info.dragNode.key));
              if (!dragged) return;
              // dropped on a node: becomes its child; dropped between nodes: a sibling of the one it lands next to
              const target = findNode(tree, Number(info.node.key));
              const parentId = info.dropToGap ? (target?.parentId ?? null) : Number(info.node.key);
              if (parentId === dragged.parentId) return;
              try {
                await update.mutateAsync({ id: dragged.id, parentId });
                void message.success(t('admin.department.moved'));
              } catch (error) {
                if (error instanceof ApiError) void message.error(error.message);
              }
            }}
          />
        </>
      )}
      <DepartmentDialog editing={editing} tree={tree} onClose={() => setEditing(null)} />
    </Card>
  );
}
