// One section of a protocol document as a table: search, create and edit in a dialog with field checks,
// delete after a confirmation. Every change saves the whole section (through the page's `save`), and the
// server's objections show with their exact place.
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Form, Input, Modal, Space, Table, Tooltip, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { PAGE_SIZES, type ProtocolDetail, type ProtocolText } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { storedLanguage, type Language } from '../../i18n/languages.ts';
import { problemsOf, type DocumentProblem } from './api.ts';
import { takenKeys } from './editor-fields.tsx';
import { ProblemList } from './problem-list.tsx';
import { DeleteAction, IconAction } from './row-actions.tsx';
import { useSection } from './section-page.tsx';

export interface SectionTableProps<Row extends object, Values extends object> {
  /**
   * Names the table and its form (test ids, form ids), and its texts: `protocols.<name>.add`, `.create` and
   * `.edit` (the create button, the dialog's title when creating and when editing).
   */
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
  modalWidth?: number;
  toolbar?: ReactNode;
  /** Hide the create button (entries that come from elsewhere). */
  noCreate?: boolean;
}

type Column<Row> = TableColumnsType<Row>[number];

/** The column of an entry's key. */
function keyColumn<Row extends { key: string }>(t: TFunction): Column<Row> {
  return { key: 'key', title: t('protocols.fields.key'), dataIndex: 'key' };
}

/** Whether an entry's key, or its name or title in the reader's language, holds the search text. */
function keyOrTextMatches(key: string, text: ProtocolText, q: string, lang: Language): boolean {
  return key.includes(q) || text[lang].toLowerCase().includes(q);
}

export function SectionTable<Row extends object, Values extends object>(props: SectionTableProps<Row, Values>) {
  const { t } = useTranslation();
  const { rows, rowKey, describe, canEdit } = props;
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
          <IconAction
            title={t('protocols.table.edit')}
            label={t('protocols.table.editRow', { name: describe(row) })}
            icon={<EditOutlined />}
            onClick={() => openDialog(row)}
          />
          {blocker ? (
            <Tooltip title={blocker}>
              <Button
                type="text"
                danger
                disabled
                icon={<DeleteOutlined />}
                aria-label={t('protocols.table.deleteRow', { name: describe(row) })}
              />
            </Tooltip>
          ) : (
            <DeleteAction
              title={t('protocols.table.deleteTitle')}
              confirm={t('protocols.table.deleteConfirm', { name: describe(row) })}
              label={t('protocols.table.deleteRow', { name: describe(row) })}
              onConfirm={() => remove(row)}
            />
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
              {t(`protocols.${props.name}.add`)}
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
        title={
          editing ? `${t(`protocols.${props.name}.edit`)}: ${describe(editing)}` : t(`protocols.${props.name}.create`)
        }
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

/** The lists of a protocol document whose entries have a key and a name or title. */
export type KeyedList = 'items' | 'commands' | 'moduleItems' | 'configMenus' | 'configParams' | 'optionLists';
type ListRow<K extends KeyedList> = ProtocolDetail[K][number];

export interface ListTableProps<K extends KeyedList, Values extends object> extends Omit<
  SectionTableProps<ListRow<K>, Values>,
  'name' | 'rows' | 'rowKey' | 'describe' | 'canEdit' | 'onSave' | 'matches' | 'fields'
> {
  /** The list of the document the table edits; it also names the table. */
  list: K;
  /** The text shown and searched beside the key. */
  text: 'name' | 'title';
  /** The rows in another order than the document's. */
  rows?: readonly ListRow<K>[];
  /** How the key shows (default: as it is). */
  renderKey?: (row: ListRow<K>) => ReactNode;
  /** Whether the row matches the search text beyond its key and text. */
  matches?: (row: ListRow<K>, query: string) => boolean;
  /** The dialog's fields; `taken`: the keys the other entries use. */
  fields: (editing: ListRow<K> | null, taken: string[]) => ReactNode;
  /** Saving when more than the list changes with it (default: the list alone). */
  onSave?: (rows: ListRow<K>[]) => Promise<void>;
}

/**
 * A table of one keyed list of the document in the section screen at hand: key and text columns first,
 * search on both, keys unique, and saving the list as a whole.
 */
export function ListTable<K extends KeyedList, Values extends object>(props: ListTableProps<K, Values>) {
  const { t } = useTranslation();
  const lang = storedLanguage();
  const { detail, save, canEdit } = useSection();
  const { list, text, renderKey, matches, fields, onSave, columns, ...rest } = props;
  const rows = props.rows ?? (detail[list] as readonly ListRow<K>[]);
  const textOf = (row: ListRow<K>) => (row as unknown as Record<typeof text, ProtocolText>)[text];
  const key: Column<ListRow<K>> = renderKey
    ? { key: 'key', title: t('protocols.fields.key'), render: (_v, row) => renderKey(row) }
    : keyColumn(t);
  return (
    <SectionTable<ListRow<K>, Values>
      {...rest}
      name={list}
      rows={rows}
      rowKey={(row) => row.key}
      describe={(row) => row.key}
      canEdit={canEdit}
      matches={(row, q) => keyOrTextMatches(row.key, textOf(row), q, lang) || (matches?.(row, q) ?? false)}
      columns={[
        key,
        { key: text, title: t(`protocols.fields.${text}`), render: (_v, row) => textOf(row)[lang] },
        ...columns,
      ]}
      fields={(editing) => fields(editing, takenKeys(rows, editing))}
      onSave={onSave ?? ((next) => save({ [list]: next }))}
    />
  );
}
