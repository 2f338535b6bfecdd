// One section of a protocol document as a table: search, create and edit in a dialog with field checks,
// delete after a confirmation. Every change saves the whole section (through the page's `save`), and the
// server's objections show with their exact place.
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Space, Table, Tooltip, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { problemsOf, type DocumentProblem } from './api.ts';
import { ProblemList } from './problem-list.tsx';

export interface SectionTableProps<Row extends object, Values extends object> {
  /** Names the table and its form (test ids, form ids). */
  name: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: TableColumnsType<Row>;
  /** Whether a row matches the search text (already lower case). */
  matches: (row: Row, query: string) => boolean;
  /** The dialog's fields; `editing` is null when creating. */
  fields: (editing: Row | null) => ReactNode;
  toValues: (row: Row) => Values;
  newValues?: () => Partial<Values>;
  fromValues: (values: Values, editing: Row | null) => Row;
  /** Saves the whole new list; rejects with the server's error. */
  onSave: (rows: Row[]) => Promise<void>;
  canEdit: boolean;
  /** Why a row cannot be deleted, or null. */
  deleteBlocker?: (row: Row) => string | null;
  /** What to call a row in dialogs and confirmations. */
  describe: (row: Row) => string;
  addText: string;
  createTitle: string;
  editTitle: string;
  modalWidth?: number;
  toolbar?: ReactNode;
  /** Hide the create button (entries that come from elsewhere). */
  noCreate?: boolean;
}

export function SectionTable<Row extends object, Values extends object>(props: SectionTableProps<Row, Values>) {
  const { t } = useTranslation();
  const { rows, rowKey, canEdit } = props;
  const [form] = Form.useForm<Values>();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<Row | null>(null);
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [problems, setProblems] = useState<DocumentProblem[]>([]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? rows.filter((row) => props.matches(row, q)) : [...rows];
  }, [query, rows, props]);

  const openDialog = (row: Row | null) => {
    setEditing(row);
    setProblems([]);
    form.resetFields();
    form.setFieldsValue(
      (row ? props.toValues(row) : (props.newValues?.() ?? {})) as Parameters<typeof form.setFieldsValue>[0],
    );
    setOpen(true);
  };

  const persist = async (next: Row[]): Promise<boolean> => {
    setSaving(true);
    setProblems([]);
    try {
      await props.onSave(next);
      return true;
    } catch (error) {
      setProblems(problemsOf(error));
      return false;
    } finally {
      setSaving(false);
    }
  };

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const row = props.fromValues(values, editing);
    const next = editing ? rows.map((r) => (r === editing ? row : r)) : [...rows, row];
    if (await persist(next)) setOpen(false);
  };

  const remove = async (row: Row) => {
    await persist(rows.filter((r) => r !== row));
  };

  const actions: TableColumnsType<Row>[number] = {
    key: 'actions',
    title: t('protocols.table.actions'),
    fixed: 'right',
    width: 110,
    render: (_value, row) => {
      const blocker = props.deleteBlocker?.(row) ?? null;
      return (
        <Space size={0}>
          <Tooltip title={t('protocols.table.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('protocols.table.editRow', { name: props.describe(row) })}
              onClick={() => openDialog(row)}
            />
          </Tooltip>
          {blocker ? (
            <Tooltip title={blocker}>
              <Button
                type="text"
                danger
                disabled
                icon={<DeleteOutlined />}
                aria-label={t('protocols.table.deleteRow', { name: props.describe(row) })}
              />
            </Tooltip>
          ) : (
            <Popconfirm
              title={t('protocols.table.deleteTitle')}
              description={t('protocols.table.deleteConfirm', { name: props.describe(row) })}
              okText={t('protocols.table.delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.actions.cancel')}
              onConfirm={() => remove(row)}
            >
              {/* A plain title: a tooltip would sit on top of the confirmation's buttons. */}
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                title={t('protocols.table.delete')}
                aria-label={t('protocols.table.deleteRow', { name: props.describe(row) })}
              />
            </Popconfirm>
          )}
        </Space>
      );
    },
  };

  return (
    <div data-testid={`section-${props.name}`}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('protocols.table.search')}
          aria-label={t('protocols.table.search')}
          onChange={(e) => setQuery(e.target.value)}
          onSearch={setQuery}
          style={{ width: 280, maxWidth: '100%' }}
        />
        <Space wrap>
          {props.toolbar}
          {canEdit && !props.noCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog(null)}>
              {props.addText}
            </Button>
          )}
        </Space>
      </Space>
      {!open && <ProblemList problems={problems} onClose={() => setProblems([])} />}
      <Table<Row>
        size="small"
        rowKey={rowKey}
        dataSource={shown}
        columns={canEdit ? [...props.columns, actions] : props.columns}
        loading={saving && !open}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyState description={query ? t('protocols.table.noMatch') : undefined} /> }}
        pagination={{
          defaultPageSize: 20,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          hideOnSinglePage: false,
          showTotal: (total) => t('protocols.table.total', { total }),
        }}
      />
      <Modal
        open={open}
        title={editing ? `${props.editTitle}: ${props.describe(editing)}` : props.createTitle}
        okText={t('common.actions.save')}
        cancelText={t('common.actions.cancel')}
        onOk={() => void submit()}
        onCancel={() => setOpen(false)}
        confirmLoading={saving}
        width={props.modalWidth ?? 720}
        forceRender
        maskClosable={false}
      >
        <ProblemList problems={problems} />
        <Form form={form} layout="vertical" name={`${props.name}-form`} preserve={false}>
          {open && props.fields(editing)}
        </Form>
      </Modal>
    </div>
  );
}
