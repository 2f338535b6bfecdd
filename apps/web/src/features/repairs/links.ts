// Where the repair pages live: the lists (own requests, service queue), the form (for one set when it is
// opened from that set) and one request.
export const repairLinks = {
  list: (tab?: 'mine' | 'queue') => (tab ? `/baoxiu/list?tab=${tab}` : '/baoxiu/list'),
  add: (setToken?: string) => (setToken ? `/baoxiu/add?token=${encodeURIComponent(setToken)}` : '/baoxiu/add'),
  detail: (token: string) => `/baoxiu/detail/${encodeURIComponent(token)}`,
};
