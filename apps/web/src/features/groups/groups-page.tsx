// /genset/groups: the user's parallel and multi-set groups with their sets' status; a group opens its live
// page; groups are made, changed and deleted here (manage rights on every set).
import { useState } from 'react';
import { App as AntApp, Button, Card, Col, Flex, Row, Skeleton, Space, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GroupNavEntry } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { SetStatusTag } from '../../components/set-status-tag.tsx';
import { ToneTag } from '../../components/tone-tag.tsx';
import { groupLink, useDeleteGroup, useGroupNav, useManageableSets } from './api.ts';
import { GroupFormDialog } from './group-form-dialog.tsx';
import './groups.css';

export function GroupsPage() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const nav = useGroupNav();
  const remove = useDeleteGroup();
  const [editing, setEditing] = useState<{ group: GroupNavEntry | null } | null>(null);
  const manageable = useManageableSets('');
  const noSets = manageable.isSuccess && manageable.data.length === 0;

  const confirmDelete = (group: GroupNavEntry) =>
    modal.confirm({
      title: t('groups.delete.title', { name: group.name }),
      content: t('groups.delete.content'),
      okText: t('groups.delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        await remove.mutateAsync(group.token);
        void message.success(t('groups.delete.done'));
      },
    });

  return (
    <Card
      title={<h2 className="group-list-title">{t('groups.title')}</h2>}
      extra={
        // a group is made of sets one manages: without any, the button says why it cannot be used
        <Tooltip title={noSets ? t('groups.list.noManagedSets') : undefined}>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ group: null })}
            disabled={noSets}
            aria-describedby={noSets ? 'group-new-reason' : undefined}
            data-testid="group-new"
          >
            {t('groups.list.new')}
          </Button>
        </Tooltip>
      }
      className="group-list"
      data-testid="groups-page"
    >
      {noSets ? (
        <Typography.Paragraph type="secondary" id="group-new-reason" data-testid="group-new-reason">
          {t('groups.list.noManagedSets')}
        </Typography.Paragraph>
      ) : null}
      {nav.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : nav.isError ? (
        <ErrorState error={nav.error} onRetry={() => void nav.refetch()} />
      ) : nav.data.list.length === 0 ? (
        <EmptyState description={t('groups.list.empty')} />
      ) : (
        <Row gutter={[12, 12]}>
          {nav.data.list.map((group) => (
            <Col key={group.token} xs={24} md={12} xl={8}>
              <Card
                size="small"
                title={
                  <Link to={groupLink(group.token)} data-testid="group-link">
                    {group.name}
                  </Link>
                }
                extra={
                  <ToneTag tone={group.kind === 'parallel' ? 'blue' : 'purple'}>
                    {t(`groups.kinds.${group.kind}`)}
                  </ToneTag>
                }
                data-testid="group-card"
              >
                <Space direction="vertical" size={6} style={{ width: '100%' }}>
                  {group.sets.map((set) => (
                    <Flex key={set.token} justify="space-between" gap={8} wrap>
                      <Typography.Text ellipsis>{set.name}</Typography.Text>
                      <SetStatusTag status={set.status} alarmCount={set.alarmnum} />
                    </Flex>
                  ))}
                </Space>
                {group.rights === 'manage' ? (
                  <Flex gap={8} wrap style={{ marginTop: 12 }}>
                    <Button
                      size="small"
                      icon={<EditOutlined />}
                      onClick={() => setEditing({ group })}
                      data-testid="group-edit"
                    >
                      {t('groups.list.edit')}
                    </Button>
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => confirmDelete(group)}
                      data-testid="group-delete"
                    >
                      {t('groups.list.delete')}
                    </Button>
                  </Flex>
                ) : null}
              </Card>
            </Col>
          ))}
        </Row>
      )}
      {editing ? (
        <GroupFormDialog key={editing.group?.token ?? 'new'} group={editing.group} onClose={() => setEditing(null)} />
      ) : null}
    </Card>
  );
}
