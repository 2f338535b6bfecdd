// /com/module/configNav/{id}: the configuration menu, the tree the parameters sit in (remote configuration
// reads one menu with the menus below it).
import { Form, Select } from 'antd';
import type { ConfigMenu, ProtocolText } from '@genset/protocol';
import type { Language } from '../../i18n/languages.ts';
import { KeyNameFields, useEditor } from './editor-fields.tsx';
import { sectionScreen, useSection } from './section-page.tsx';
import { ListTable } from './section-table.tsx';

interface MenuForm {
  key: string;
  name: ProtocolText;
  parent?: string;
}

/** Menus in tree order (each followed by the menus below it), with their depth. */
export function menuTree(menus: readonly ConfigMenu[]): { menu: ConfigMenu; depth: number }[] {
  const out: { menu: ConfigMenu; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | undefined, depth: number) => {
    for (const menu of menus) {
      if (menu.parent !== parent || seen.has(menu.key)) continue;
      seen.add(menu.key);
      out.push({ menu, depth });
      visit(menu.key, depth + 1);
    }
  };
  visit(undefined, 0);
  // Menus under an unknown parent still show, at the top level.
  for (const menu of menus) if (!seen.has(menu.key)) out.push({ menu, depth: 0 });
  return out;
}

/** Menus in tree order as choices, indented by depth. */
export function menuOptions(tree: { menu: ConfigMenu; depth: number }[], lang: Language) {
  return tree.map((entry) => ({
    value: entry.menu.key,
    label: `${'— '.repeat(entry.depth)}${entry.menu.name[lang]} (${entry.menu.key})`,
  }));
}

/** The menu and every menu below it. */
export function subtreeOf(menus: readonly ConfigMenu[], key: string): Set<string> {
  const keys = new Set([key]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const menu of menus) {
      if (menu.parent !== undefined && keys.has(menu.parent) && !keys.has(menu.key)) {
        keys.add(menu.key);
        grew = true;
      }
    }
  }
  return keys;
}

function ConfigMenusTable() {
  const { t, lang } = useEditor();
  const { detail } = useSection();
  const tree = menuTree(detail.configMenus);
  const depth = new Map(tree.map((entry) => [entry.menu.key, entry.depth]));
  const nameOf = (key: string | undefined) =>
    detail.configMenus.find((m) => m.key === key)?.name[lang] ?? t('common.none');
  return (
    <ListTable<'configMenus', MenuForm>
      list="configMenus"
      text="name"
      rows={tree.map((entry) => entry.menu)}
      renderKey={(row) => (
        <span style={{ paddingInlineStart: (depth.get(row.key) ?? 0) * 20 }}>
          {(depth.get(row.key) ?? 0) > 0 ? '└ ' : ''}
          {row.key}
        </span>
      )}
      columns={[
        { key: 'parent', title: t('protocols.fields.parent'), render: (_v, row) => nameOf(row.parent) },
        {
          key: 'params',
          title: t('protocols.fields.paramCount'),
          render: (_v, row) => detail.configParams.filter((p) => p.menu === row.key).length,
        },
      ]}
      deleteBlocker={(row) => {
        const children = detail.configMenus.filter((m) => m.parent === row.key).map((m) => m.key);
        if (children.length > 0) return t('protocols.blockers.menuHasChildren', { names: children.join(', ') });
        const params = detail.configParams.filter((p) => p.menu === row.key).map((p) => p.key);
        if (params.length > 0) return t('protocols.blockers.menuHasParams', { names: params.join(', ') });
        return null;
      }}
      fields={(editing, taken) => {
        const excluded = editing ? subtreeOf(detail.configMenus, editing.key) : new Set<string>();
        return (
          <>
            <KeyNameFields taken={taken} fixed={editing !== null} />
            <Form.Item name="parent" label={t('protocols.fields.parent')} tooltip={t('protocols.hints.parent')}>
              <Select
                allowClear
                options={menuOptions(
                  tree.filter((entry) => !excluded.has(entry.menu.key)),
                  lang,
                )}
              />
            </Form.Item>
          </>
        );
      }}
      toValues={(row) => ({ ...row })}
      fromValues={(values) => ({
        key: values.key.trim(),
        name: values.name,
        ...(values.parent ? { parent: values.parent } : {}),
      })}
    />
  );
}

export const ConfigMenusPage = sectionScreen('configMenus', ConfigMenusTable);
