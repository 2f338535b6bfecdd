// One tab of the tag strip with its context menu (105 px wide) and close button.
import { useEffect, useRef } from 'react';
import { Dropdown, type MenuProps } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTabs, type CloseAction, type VisitedView } from '../../stores/tabs.ts';

const CONTEXT_MENU_WIDTH = 105;

type Action = CloseAction | 'refresh';

export function TagItem({
  view,
  active,
  index,
  count,
}: {
  view: VisitedView;
  active: boolean;
  index: number;
  count: number;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const close = useTabs((s) => s.close);
  const views = useTabs((s) => s.views);
  const title = view.titleKey ? t(view.titleKey) : (view.title ?? view.path);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (active) ref.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  function run(action: Action) {
    if (action === 'refresh') {
      navigate(`/redirect${view.fullPath}`, { replace: view.path === pathname });
      return;
    }
    const next = close(action, view.path, pathname);
    if (next) navigate(next);
  }

  const hasClosableLeft = views.slice(0, index).some((v) => !v.pinned);
  const hasClosableRight = views.slice(index + 1).some((v) => !v.pinned);
  const hasClosableOthers = views.some((v) => !v.pinned && v.path !== view.path);
  const items: MenuProps['items'] = [
    { key: 'refresh', label: t('layout.tabs.refresh') },
    { key: 'close', label: t('layout.tabs.close'), disabled: view.pinned },
    { key: 'closeOthers', label: t('layout.tabs.closeOthers'), disabled: !hasClosableOthers },
    { key: 'closeLeft', label: t('layout.tabs.closeLeft'), disabled: !hasClosableLeft },
    { key: 'closeRight', label: t('layout.tabs.closeRight'), disabled: !hasClosableRight || index === count - 1 },
    { key: 'closeAll', label: t('layout.tabs.closeAll') },
  ];

  return (
    <Dropdown
      trigger={['contextMenu']}
      menu={{ items, onClick: ({ key }) => run(key as Action) }}
      styles={{ root: { width: CONTEXT_MENU_WIDTH, minWidth: CONTEXT_MENU_WIDTH } }}
    >
      <div
        ref={ref}
        className={`tags-view-item${active ? ' is-active' : ''}`}
        data-testid="tag"
        data-path={view.path}
        data-active={active || undefined}
      >
        <Link to={view.fullPath} aria-current={active ? 'page' : undefined}>
          {title}
        </Link>
        {view.pinned ? null : (
          <button
            type="button"
            className="tags-view-close"
            aria-label={t('layout.tabs.closeNamed', { title })}
            onClick={() => run('close')}
          >
            <CloseOutlined />
          </button>
        )}
      </div>
    </Dropdown>
  );
}
