// The menu of the user's permitted routes: internal entries are links, external ones open a new tab.
import { useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../stores/session.ts';
import { buildMenu, openKeysFor, selectedKeyFor, type MenuNode } from '../../app/menu-routes.ts';
import { MenuIcon } from '../../components/menu-icon.tsx';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[]): Item[] {
  return nodes.map((node): Item => {
    const icon = <MenuIcon name={node.ico} />;
    // a title too long for the sidebar ends in an ellipsis; its title attribute shows it whole
    if (node.children)
      return {
        key: node.key,
        icon,
        label: <span title={node.title}>{node.title}</span>,
        children: toItems(node.children),
      };
    const label = node.external ? (
      <a href={node.path} target="_blank" rel="noopener noreferrer" title={node.title}>
        {node.title} <ExportOutlined style={{ fontSize: 11 }} aria-hidden />
      </a>
    ) : (
      <Link to={node.path} title={node.title}>
        {node.title}
      </Link>
    );
    return { key: node.key, icon, label };
  });
}

export function SidebarMenu({ collapsed }: { collapsed: boolean }) {
  const routes = useSession((s) => s.routes);
  const { pathname } = useLocation();
  const nodes = useMemo(() => buildMenu(routes), [routes]);
  const items = useMemo(() => toItems(nodes), [nodes]);
  const selected = selectedKeyFor(nodes, pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(nodes, pathname));

  const [openedFor, setOpenedFor] = useState(pathname);
  if (openedFor !== pathname) {
    // a new page opens the submenus leading to it, keeping those the user opened
    setOpenedFor(pathname);
    const needed = openKeysFor(nodes, pathname);
    if (needed.length) setOpenKeys((keys) => Array.from(new Set([...keys, ...needed])));
  }

  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={selected ? [selected] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      style={{ borderInlineEnd: 0 }}
      data-testid="sidebar-menu"
    />
  );
}
