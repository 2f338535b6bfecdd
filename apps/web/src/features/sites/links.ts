// Where station pages live: the list in the shell, a station's pages in the /ems/ layout, whose query
// carries the station token and a maintenance token (spec 2).
export const SITE_LIST_PATH = '/site/list';

export const EMS_PATHS = {
  overview: '/ems/index',
  alarms: '/ems/baojinginfo',
  statistics: '/ems/statistics',
  devices: '/ems/devices',
  strategy: '/ems/strategy',
  records: '/ems/records',
  log: '/ems/log',
} as const;

export function stationHref(path: string, token: string, mtoken?: string | null): string {
  const query = new URLSearchParams({ token });
  if (mtoken) query.set('mtoken', mtoken);
  return `${path}?${query.toString()}`;
}
