// The realtime channel of the console (spec 4, design API.md "Realtime WebSocket").
//
// One WebSocket to /ws per page, shared by every component that shows live values:
//
//   const { live, online } = useSetRealtime(token);            // one set, its module at the online rate
//   const { sets, online } = useFleetRealtime(tokens);         // many sets (a grid, a list), ≤ 100 sent
//   useFleetRealtime(memberTokens, { group });                 // a group's members, at the online rate
//   const { live } = useSiteRealtime(stationToken);            // a station: its overview and alarm count
//
// - `live` (LiveSet) holds the last `monitor` push (status, alarmnum, ts, values by item key) and the last
//   `alarm` push (alarms: open alarms with localised titles); undefined until the first push, which the
//   server sends as soon as it accepts the watch. Values are scaled, in the unit of the protocol's item;
//   item names, units, decimals and enumeration labels come from /realTimeData/monitorList.
// - `online` is false while the socket is not open: show "offline" then (spec 4).
// - The connection sends {method:"wshb", token, utoken, language, tokens?} at once, whenever what is watched
//   changes, and every 120 s. `token` is the latest single set watched; every other watched set goes in
//   `tokens`. Pushes for sets nobody on the page watches are ignored.
// - On close it retries at once, then every 20 s, while at least one watcher asked for retries
//   (`reconnect`, default true; the maintenance tab passes false). A refused user token stops retries.
// - Data of a set is dropped when its last watcher leaves; the socket closes 3 s after the last one.
export { useFleetRealtime, useRealtimeConnection, useSetRealtime, useSiteRealtime } from './hooks.ts';
export { pushedSince, useRefreshWhenStale } from './use-refresh-when-stale.ts';
export type { FleetRealtime, FleetRealtimeOptions, RealtimeOptions, SetRealtime, SiteRealtime } from './hooks.ts';
export type { LiveSet } from './store.ts';
export type { LiveAlarm, SitePush } from './messages.ts';
export type { ConnectionState } from './connection.ts';
