// The actions of one set in a list: live pages, details and edit as buttons, the rest in a menu that shows
// only what the user's rights allow.
import { Button, Dropdown, Space, Tooltip, type MenuProps } from 'antd';
import {
  DashboardOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  EditOutlined,
  FileTextOutlined,
  LineChartOutlined,
  MoreOutlined,
  ProfileOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  ToolOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Permission, type GensetListItem } from '@genset/protocol';
import { useAuthorized } from '../../components/use-authorized.ts';
import { setLinks } from './links.ts';
import { repairLinks } from '../repairs/links.ts';

export interface RowActionHandlers {
  onDelete: (set: GensetListItem) => void;
  onLeave?: (set: GensetListItem) => void;
  onSubscribers: (set: GensetListItem) => void;
  /** Hand the set over to another account (managers). */
  onHandOver?: (set: GensetListItem) => void;
}

export function RowActions({
  set,
  handlers,
  compact = false,
}: {
  set: GensetListItem;
  handlers: RowActionHandlers;
  /** Phones: the live page as a button, everything else in the menu. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const manage = set.rights === 'manage';
  const control = manage || set.rights === 'control';
  const reports = useAuthorized()([Permission.gensetReport]);

  const items: MenuProps['items'] = [
    ...(compact
      ? [
          { key: 'detail', icon: <ProfileOutlined />, label: t('gensets.actions.detail') },
          ...(manage ? [{ key: 'edit', icon: <EditOutlined />, label: t('gensets.actions.edit') }] : []),
        ]
      : []),
    { key: 'history', icon: <LineChartOutlined />, label: t('gensets.actions.history') },
    ...(reports ? [{ key: 'report', icon: <FileTextOutlined />, label: t('reports.title') }] : []),
    { key: 'video', icon: <VideoCameraOutlined />, label: t('video.open') },
    { key: 'repair', icon: <ToolOutlined />, label: t('repairs.request') },
    ...(control ? [{ key: 'config', icon: <SettingOutlined />, label: t('gensets.actions.config') }] : []),
    ...(manage ? [{ key: 'subscribers', icon: <TeamOutlined />, label: t('gensets.actions.subscribers') }] : []),
    ...(manage && handlers.onHandOver
      ? [{ key: 'handover', icon: <SwapOutlined />, label: t('transfers.actions.handOver') }]
      : []),
    ...(handlers.onLeave && set.subscribed && !set.owned
      ? [{ key: 'leave', icon: <DisconnectOutlined />, label: t('gensets.actions.leave') }]
      : []),
    ...(manage
      ? [
          { type: 'divider' as const },
          { key: 'delete', icon: <DeleteOutlined />, label: t('gensets.actions.delete'), danger: true },
        ]
      : []),
  ];

  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'detail') void navigate(setLinks.detail(set.token));
    if (key === 'edit') void navigate(setLinks.edit(set.token));
    if (key === 'history') void navigate(setLinks.history(set.token));
    if (key === 'report') void navigate(setLinks.report(set.token));
    if (key === 'video') void navigate(setLinks.video(set.token));
    if (key === 'repair') void navigate(repairLinks.add(set.token));
    if (key === 'config') void navigate(setLinks.config(set.token));
    if (key === 'subscribers') handlers.onSubscribers(set);
    if (key === 'handover') handlers.onHandOver?.(set);
    if (key === 'leave') handlers.onLeave?.(set);
    if (key === 'delete') handlers.onDelete(set);
  };

  return (
    <Space size={0} className="genset-row-actions">
      <Tooltip title={t('gensets.actions.live')}>
        <Button
          type="text"
          size="small"
          icon={<DashboardOutlined />}
          aria-label={t('gensets.actions.liveOf', { name: set.name })}
          onClick={() => void navigate(setLinks.live(set.token))}
        />
      </Tooltip>
      {compact ? null : (
        <Tooltip title={t('gensets.actions.detail')}>
          <Button
            type="text"
            size="small"
            icon={<ProfileOutlined />}
            aria-label={t('gensets.actions.detailOf', { name: set.name })}
            onClick={() => void navigate(setLinks.detail(set.token))}
          />
        </Tooltip>
      )}
      {manage && !compact ? (
        <Tooltip title={t('gensets.actions.edit')}>
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('gensets.actions.editOf', { name: set.name })}
            onClick={() => void navigate(setLinks.edit(set.token))}
          />
        </Tooltip>
      ) : null}
      <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']} placement="bottomRight">
        <Button
          type="text"
          size="small"
          icon={<MoreOutlined />}
          aria-label={t('gensets.actions.moreOf', { name: set.name })}
        />
      </Dropdown>
    </Space>
  );
}
