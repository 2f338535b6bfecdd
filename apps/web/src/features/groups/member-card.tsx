// One set of a group: its status and breaker, its share of what the group delivers, the group's items, and
// its own start and stop (the set's control flow, with the same confirmation).
import { Button, Card, Descriptions, Flex, Progress, Typography } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { shareOf, type GroupBus, type GroupItemColumn, type GroupMember } from '@genset/protocol';
import type { SetCommand } from '../../api/commands.ts';
import { SetStatusTag } from '../../components/set-status-tag.tsx';
import { formatValue, NONE } from '../../components/format.ts';
import { BreakerTag } from './breaker-tag.tsx';

const liveLink = (token: string) => `/top/realtime?token=${encodeURIComponent(token)}`;

function ItemValue({ member, column }: { member: GroupMember; column: GroupItemColumn }) {
  const value = member.values[column.key];
  const label = value === null || value === undefined ? undefined : member.labels[column.key]?.[String(value)];
  if (label) return <>{label}</>;
  return <span className="group-num">{formatValue(value, column.unit, column.decimals)}</span>;
}

export function MemberCard({
  member,
  columns,
  bus,
  commands,
  onCommand,
}: {
  member: GroupMember;
  columns: GroupItemColumn[];
  bus: GroupBus;
  commands: SetCommand[];
  onCommand: (command: SetCommand, member: GroupMember) => void;
}) {
  const { t } = useTranslation();
  const share = shareOf(member, bus);
  const kw = member.status === 0 ? null : (member.values.gen_kw ?? null);
  const allowed = member.rights !== 'view';
  return (
    <Card
      size="small"
      className="group-member"
      title={
        <Link to={liveLink(member.token)} data-testid="member-name">
          {member.name}
        </Link>
      }
      extra={<SetStatusTag status={member.status} alarmCount={member.alarmnum} />}
      data-testid="group-member"
      data-token={member.token}
    >
      <Flex wrap gap={8} align="center" style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('groups.member.breaker')}</Typography.Text>
        <BreakerTag member={member} />
        {member.ratedKw ? (
          <Typography.Text type="secondary">
            {t('groups.member.rated', { power: formatValue(member.ratedKw, 'kW', 0) })}
          </Typography.Text>
        ) : null}
      </Flex>
      <div className="group-share" data-testid="member-share" data-share={share === null ? '' : share.toFixed(1)}>
        <Typography.Text type="secondary">{t('groups.member.share')}</Typography.Text>
        <Progress
          percent={share === null ? 0 : Math.round(share * 10) / 10}
          format={() => (share === null ? NONE : `${Math.round(share)}%`)}
          status={share === null ? 'normal' : 'active'}
          size="small"
          aria-label={t('groups.member.share')}
        />
        <Typography.Text className="group-num" data-testid="member-kw">
          {formatValue(kw, 'kW', 1)}
        </Typography.Text>
      </div>
      {columns.length > 0 ? (
        <Descriptions
          size="small"
          // one reading a row: a card of a group is narrow, two columns would squeeze "229 V" below its label
          column={{ xs: 1, sm: 2, md: 1, lg: 1, xl: 1, xxl: 1 }}
          items={columns.map((column) => ({
            key: column.key,
            label: column.name,
            children: <ItemValue member={member} column={column} />,
          }))}
          style={{ marginTop: 8 }}
        />
      ) : null}
      {commands.length > 0 ? (
        <Flex wrap gap={8} style={{ marginTop: 12 }}>
          {commands.map((command) => (
            <Button
              key={command.key}
              size="small"
              type={command.key === 'start' ? 'primary' : 'default'}
              danger={command.key === 'stop'}
              icon={command.risky ? <WarningOutlined /> : undefined}
              disabled={!allowed}
              onClick={() => onCommand(command, member)}
              data-testid={`member-${command.key}`}
            >
              {command.title}
            </Button>
          ))}
        </Flex>
      ) : null}
    </Card>
  );
}
