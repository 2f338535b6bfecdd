// /com/module/configNav/{id}: the configuration menu, the tree the parameters sit in (remote configuration
// reads one menu with the menus below it).
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigMenu, ProtocolText } from '@genset/protocol';
import { storedLanguage } from '../../i18n/languages.ts';
import { useDocumentRules } from './document-rules.ts';
import { SectionPage } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

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

export function ConfigMenusPage() {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const lang = storedLanguage();
  return (
    <SectionPage section="configMenus">
      {({ detail, save, canEdit }) => {
        const tree = menuTree(detail.configMenus);
        const depth = new Map(tree.map((entry) => [entry.menu.key, entry.depth]));
        const nameOf = (key: string | undefined) =>
          detail.configMenus.find((m) => m.key === key)?.name[lang] ?? t('common.none');
        return (
          <SectionTable<ConfigMenu, MenuForm>
            name="configMenus"
            rows={tree.map((entry) => entry.menu)}
            rowKey={(row) => row.key}
            describe={(row) => row.key}
            canEdit={canEdit}
            matches={(row, q) => row.key.includes(q) || row.name[lang].toLowerCase().includes(q)}
            columns={[
              {
                key: 'key',
                title: t('protocols.fields.key'),
                render: (_v, row) => (
                  <span style={{ paddingInlineStart: (depth.get(row.key) ?? 0) * 20 }}>
                    {(depth.get(row.key) ?? 0) > 0 ? '└ ' : ''}
                    {row.key}
                  </span>
                ),
              },
              { key: 'name', title: t('protocols.fields.name'), render: (_v, row) => row.name[lang] },
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
            fields={(editing) => {
              const excluded = editing ? subtreeOf(detail.configMenus, editing.key) : new Set<string>();
              return (
                <>
                  <Form.Item
                    name="key"
                    label={t('protocols.fields.key')}
                    rules={rules.key(detail.configMenus.filter((m) => m !== editing).map((m) => m.key))}
                    tooltip={t('protocols.hints.key')}
                  >
                    <Input maxLength={60} spellCheck={false} disabled={editing !== null} />
                  </Form.Item>
                  <TextFields name="name" label={t('protocols.fields.name')} />
                  <Form.Item name="parent" label={t('protocols.fields.parent')} tooltip={t('protocols.hints.parent')}>
                    <Select
                      allowClear
                      options={tree
                        .filter((entry) => !excluded.has(entry.menu.key))
                        .map((entry) => ({
                          value: entry.menu.key,
                          label: `${'— '.repeat(entry.depth)}${entry.menu.name[lang]} (${entry.menu.key})`,
                        }))}
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
            onSave={(configMenus) => save({ configMenus })}
            addText={t('protocols.configMenus.add')}
            createTitle={t('protocols.configMenus.create')}
            editTitle={t('protocols.configMenus.edit')}
          />
        );
      }}
    </SectionPage>
  );
}
