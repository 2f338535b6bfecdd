// The controller's configuration menus as a tree; picking one reads its settings (with the menus below it).
import { Tree, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigMenuEntry } from '@genset/protocol';

export const ALL_MENUS = '__all__';

function nodesUnder(menus: readonly ConfigMenuEntry[], parent: string | null): TreeDataNode[] {
  return menus
    .filter((menu) => menu.parent === parent)
    .map((menu) => {
      const children = nodesUnder(menus, menu.key);
      return { key: menu.key, title: menu.name, ...(children.length ? { children } : { isLeaf: true }) };
    });
}

export function ConfigMenuTree(props: {
  menus: readonly ConfigMenuEntry[];
  selected: string | undefined;
  disabled: boolean;
  onSelect: (menu: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const treeData: TreeDataNode[] = [
    { key: ALL_MENUS, title: t('remoteConfig.menus.all'), children: nodesUnder(props.menus, null) },
  ];
  return (
    <nav aria-label={t('remoteConfig.menus.title')}>
      <Tree
        blockNode
        defaultExpandAll
        disabled={props.disabled}
        treeData={treeData}
        selectedKeys={[props.selected ?? ALL_MENUS]}
        onSelect={(keys) => {
          const key = keys[0];
          if (key === undefined) return;
          props.onSelect(key === ALL_MENUS ? undefined : String(key));
        }}
      />
    </nav>
  );
}
