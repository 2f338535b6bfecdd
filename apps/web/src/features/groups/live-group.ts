// A group as the page shows it: the members from /genset/getZuItem with what the realtime channel pushed since
// (newer readings win), and the bus worked out from them the way the server does.
import { useMemo } from 'react';
import { groupBusOf, type GroupBus, type GroupItemResponse, type GroupMember } from '@genset/protocol';
import { useFleetRealtime, type ConnectionState } from '../../realtime/index.ts';

export interface LiveGroup {
  members: GroupMember[];
  bus: GroupBus;
  connection: ConnectionState;
}

export function useLiveGroup(group: GroupItemResponse | undefined): LiveGroup {
  const tokens = useMemo(() => (group?.members ?? []).map((m) => m.token), [group]);
  const fleet = useFleetRealtime(tokens, { group: group?.token, enabled: Boolean(group) });
  return useMemo(() => {
    const members = (group?.members ?? []).map((member) => {
      const live = fleet.sets[member.token];
      if (!live || live.status === null || (live.ts ?? 0) < (member.ts ?? 0)) return member;
      return {
        ...member,
        status: live.status,
        alarmnum: live.alarmnum ?? member.alarmnum,
        ts: live.ts,
        values: { ...member.values, ...live.values },
      };
    });
    return { members, bus: groupBusOf(group?.kind ?? 'multi', members), connection: fleet.connection };
  }, [group, fleet.sets, fleet.connection]);
}
