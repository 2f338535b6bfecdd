// Where a set's pages live; the token names the set in every address.
export const setLinks = {
  live: (token: string) => `/top/realtime?token=${encodeURIComponent(token)}`,
  detail: (token: string) => `/crewmanage/detail/${encodeURIComponent(token)}`,
  edit: (token: string) => `/crewmanage/update/${encodeURIComponent(token)}`,
  config: (token: string) => `/crewmanage/gconfig?token=${encodeURIComponent(token)}`,
  history: (token: string) => `/genset/history?token=${encodeURIComponent(token)}`,
  alarms: (token: string) => `/genset/alarms?token=${encodeURIComponent(token)}`,
  report: (token: string) => `/crewmanage/report/${encodeURIComponent(token)}`,
  video: (token: string) => `/crewmanage/monitorVideo?token=${encodeURIComponent(token)}`,
};
