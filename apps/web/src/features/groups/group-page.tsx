// /genset/groups/{token}: one parallel or multi-set group live, for a technician on a phone as much as at a
// desk: the bus (voltage, frequency, total kW and kVA), each set's breaker and share of the load, the group's
// items per set; start or stop the whole group (the server sends each set the command and reports each outcome,
// whether or not the page stays open) or one set.
import { useState } from 'react';
import { Button, Card, Col, Flex, Result, Row, Skeleton, Space, Typography } from 'antd';
import { ArrowLeftOutlined, PoweroffOutlined, WarningOutlined, CaretRightOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ResultCode, type GroupMember } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { useCommands, type SetCommand } from '../../api/commands.ts';
import { CommandDialog } from '../../components/command-dialog.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { ToneTag } from '../../components/tone-tag.tsx';
import { useGroupItem } from './api.ts';
import { BusCard } from './bus-card.tsx';
import { ConnectionBadge } from './connection-badge.tsx';
import { GroupCommandCard, GroupCommandDialog } from './group-command.tsx';
import { useLiveGroup } from './live-group.ts';
import { MemberCard } from './member-card.tsx';
import './groups.css';

/** The commands a group page offers: start and stop, as the members' protocol names them. */
const GROUP_COMMANDS = ['start', 'stop'];

type Chosen = { command: SetCommand; member: GroupMember | null };

export function GroupPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const group = useGroupItem(token);
  const live = useLiveGroup(group.data);
  const first = group.data?.members[0]?.token ?? '';
  const commandList = useCommands(first);
  const commands = GROUP_COMMANDS.map((key) => commandList.data?.find((c) => c.key === key)).filter(
    (c): c is SetCommand => c !== undefined,
  );
  const [chosen, setChosen] = useState<Chosen | null>(null);

  if (group.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (group.isError) {
    if (group.error instanceof ApiError && group.error.code === ResultCode.notFound)
      return (
        <Result
          status="404"
          title={t('groups.page.notFound')}
          extra={<Link to="/genset/groups">{t('groups.page.back')}</Link>}
        />
      );
    return <ErrorState error={group.error} onRetry={() => void group.refetch()} />;
  }
  const data = group.data;
  // a set the user may not control is refused by the server; the others carry the command out
  const allowed = data.members.some((m) => m.rights !== 'view');

  return (
    <Space direction="vertical" size={12} className="group-page" data-testid="group-page">
      <Card size="small">
        <Flex wrap gap={8} align="center" justify="space-between">
          <Flex wrap gap={8} align="center">
            <Link to="/genset/groups" aria-label={t('groups.page.back')}>
              <ArrowLeftOutlined />
            </Link>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="group-name">
              {data.name}
            </Typography.Title>
            <ToneTag tone={data.kind === 'parallel' ? 'blue' : 'purple'} data-testid="group-kind">
              {t(`groups.kinds.${data.kind}`)}
            </ToneTag>
            <ConnectionBadge connection={live.connection} />
          </Flex>
          <Flex wrap gap={8}>
            {commands.map((command) => (
              <Button
                key={command.key}
                type={command.key === 'start' ? 'primary' : 'default'}
                danger={command.key === 'stop'}
                icon={
                  command.risky ? (
                    <WarningOutlined />
                  ) : command.key === 'start' ? (
                    <CaretRightOutlined />
                  ) : (
                    <PoweroffOutlined />
                  )
                }
                disabled={!allowed}
                onClick={() => setChosen({ command, member: null })}
                data-testid={`group-${command.key}`}
              >
                {t(`groups.page.${command.key}Group`)}
              </Button>
            ))}
          </Flex>
        </Flex>
        {data.rights === 'view' ? (
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }} data-testid="group-no-rights">
            {allowed ? t('groups.page.someRefused') : t('groups.page.noRights')}
          </Typography.Paragraph>
        ) : null}
      </Card>
      <GroupCommandCard token={data.token} hidden={chosen !== null && chosen.member === null} />
      <BusCard kind={data.kind} bus={live.bus} />
      <Row gutter={[12, 12]}>
        {live.members.map((member) => (
          <Col key={member.token} xs={24} md={12} xl={8}>
            <MemberCard
              member={member}
              columns={data.items}
              bus={live.bus}
              commands={commands}
              onCommand={(command, target) => setChosen({ command, member: target })}
            />
          </Col>
        ))}
      </Row>
      <CommandDialog
        command={chosen?.member ? chosen.command : null}
        token={chosen?.member?.token ?? ''}
        setName={chosen?.member?.name ?? ''}
        onClose={() => setChosen(null)}
      />
      <GroupCommandDialog
        command={chosen && !chosen.member ? chosen.command : null}
        group={{ token: data.token, name: data.name, sets: data.members.map((m) => m.name) }}
        onClose={() => setChosen(null)}
      />
    </Space>
  );
}
