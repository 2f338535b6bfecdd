// Data every installation has, written idempotently at each start: the menu tree, the roles of the
// platform company, and (when asked for by configuration) the first platform administrator.
import { Permission, ALL_PERMISSIONS, type DataScope, type MenuType } from '@genset/protocol';
import type { Db } from '../db/database.ts';
import { createUser } from '../modules/account/users.ts';

export { createUser };

interface MenuSeed {
  name: string;
  parent?: string;
  type: MenuType;
  url: string;
  ico: string;
  component: string;
  visible: boolean;
  permission?: string;
  external?: boolean;
}

/** The menu. Later features add their entries here; `name` is the stable key and `menu.<name>` its title. */
export const MENU: MenuSeed[] = [
  { name: 'home', type: 'M', url: '/index', ico: 'HomeOutlined', component: 'home/index', visible: true },
  { name: 'help', type: 'M', url: '/help/list', ico: 'ReadOutlined', component: 'help/list', visible: true },
  { name: 'helpInfo', type: 'M', url: '/help/info', ico: 'FileTextOutlined', component: 'help/info', visible: false },
  {
    name: 'personal',
    type: 'M',
    url: '/user/personal',
    ico: 'UserOutlined',
    component: 'user/personal',
    visible: false,
  },
  // Gensets: the everyday pages of owners and operators.
  { name: 'gensets', type: 'M', url: '/genset', ico: 'ThunderboltOutlined', component: 'Layout', visible: true },
  g('myGensets', 'mylist', 'genset/mylist', 'DashboardOutlined', true),
  g('gensetManage', 'list', 'genset/list', 'DatabaseOutlined', true, Permission.gensetManage),
  g('gensetAdd', 'add', 'genset/add', 'PlusOutlined', false, Permission.gensetManage),
  g('alarms', 'alarms', 'genset/alarms', 'AlertOutlined', true, Permission.alarmView),
  g('history', 'history', 'genset/history', 'LineChartOutlined', true),
  g('groups', 'groups', 'genset/groups', 'ClusterOutlined', true),
  // Handing sets over: the pending and done handovers the user sends or receives.
  g('transfers', 'transfers', 'genset/transfers', 'SwapOutlined', true),
  // Maintenance across the sets one sees: due and overdue tasks, and the company's templates for those who manage.
  g('maintenance', 'maintenance', 'genset/maintenance', 'ScheduleOutlined', true),
  // One parallel or multi-machine group live: its bus, each set's share and breaker, group start and stop.
  g('groupDetail', 'groups/:token', 'genset/group', 'ClusterOutlined', false),
  g('gensetDetail', '/crewmanage/detail/:token', 'crewmanage/detail', 'ProfileOutlined', false),
  g('gensetUpdate', '/crewmanage/update/:token', 'crewmanage/update', 'EditOutlined', false),
  g('gensetConfig', '/crewmanage/gconfig', 'crewmanage/gconfig', 'SettingOutlined', false),
  g(
    'gensetReport',
    '/crewmanage/report/:token',
    'crewmanage/report',
    'FileTextOutlined',
    false,
    Permission.gensetReport,
  ),
  g('gensetVideo', '/crewmanage/monitorVideo', 'crewmanage/monitorVideo', 'VideoCameraOutlined', false),
  // Repair requests: the caller's own and, with repair:manage, the company's service queue; the form and one request.
  { name: 'repairs', type: 'M', url: '/baoxiu/list', ico: 'ToolOutlined', component: 'baoxiu/list', visible: true },
  { name: 'repairAdd', type: 'M', url: '/baoxiu/add', ico: 'ToolOutlined', component: 'baoxiu/add', visible: false },
  {
    name: 'repairDetail',
    type: 'M',
    url: '/baoxiu/detail/:token',
    ico: 'ToolOutlined',
    component: 'baoxiu/detail',
    visible: false,
  },
  {
    name: 'monitor',
    type: 'C',
    url: '/monitor',
    ico: 'FundProjectionScreenOutlined',
    component: 'monitor/index',
    visible: true,
  },
  {
    name: 'manyMonitor',
    type: 'C',
    url: '/manymonitor',
    ico: 'AppstoreOutlined',
    component: 'monitor/many',
    visible: true,
  },
  // Where a company's notices are posted (its administrators).
  {
    name: 'webhooks',
    type: 'M',
    url: '/system/webhooks',
    ico: 'NotificationOutlined',
    component: 'system/webhooks',
    visible: true,
    permission: Permission.companyManage,
  },
  // The company's threshold alarms on any value of its sets (its administrators).
  {
    name: 'alarmRules',
    type: 'M',
    url: '/system/alarmRules',
    ico: 'AlertOutlined',
    component: 'system/alarmRules',
    visible: true,
    permission: Permission.companyManage,
  },
  // Administration: every company (the platform administrator), the company's department tree and its people.
  {
    name: 'companies',
    type: 'M',
    url: '/system/company',
    ico: 'BankOutlined',
    component: 'system/company',
    visible: true,
    permission: ALL_PERMISSIONS,
  },
  {
    name: 'departments',
    type: 'M',
    url: '/system/dept',
    ico: 'ApartmentOutlined',
    component: 'system/dept',
    visible: true,
    permission: Permission.departmentManage,
  },
  {
    name: 'users',
    type: 'M',
    url: '/system/user',
    ico: 'TeamOutlined',
    component: 'system/user',
    visible: true,
    permission: Permission.userManage,
  },
  // The company's roles (permissions, pages, data scope), members joining by invitation, and the operation log.
  {
    name: 'roles',
    type: 'M',
    url: '/system/role',
    ico: 'SafetyCertificateOutlined',
    component: 'system/role',
    visible: true,
    permission: Permission.roleManage,
  },
  {
    name: 'members',
    type: 'M',
    url: '/system/member',
    ico: 'UserAddOutlined',
    component: 'system/member',
    visible: true,
    permission: Permission.userManage,
  },
  {
    name: 'oplog',
    type: 'M',
    url: '/system/log',
    ico: 'FileSearchOutlined',
    component: 'system/log',
    visible: true,
    permission: Permission.logView,
  },
  // Firmware upgrades over the air of the modules and controllers of the sets one manages (spec /site/upgrade).
  {
    name: 'upgrades',
    type: 'M',
    url: '/site/upgrade',
    ico: 'CloudUploadOutlined',
    component: 'site/upgrade',
    visible: true,
    permission: Permission.otaManage,
  },
  // Energy-storage stations: the stations one sees, adding and editing them, and the company's price templates.
  {
    name: 'stations',
    type: 'M',
    url: '/site',
    ico: 'ThunderboltOutlined',
    component: 'Layout',
    visible: true,
    permission: Permission.siteView,
  },
  s('myStations', '/site/list', 'site/list', 'AppstoreOutlined', true, Permission.siteView),
  s('stationAdd', '/site/add', 'site/add', 'PlusOutlined', false, Permission.siteManage),
  s('stationEdit', '/site/edit/:token', 'site/edit', 'EditOutlined', false, Permission.siteManage),
  s('priceTemplates', '/site/template', 'site/template', 'MoneyCollectOutlined', true, Permission.siteView),
  // The energy-station layout (type E, /ems/?token=…): a station's own pages, its left menu in this order (the
  // second entry carries the alarm count). Reached from My stations, so not in the main menu itself.
  {
    name: 'ems',
    type: 'E',
    url: '/ems',
    ico: 'ThunderboltOutlined',
    component: 'EmsLayout',
    visible: false,
    permission: Permission.siteView,
  },
  e('emsOverview', '/ems/index', 'ems/index', 'DashboardOutlined'),
  // (its alarms need alarm:view and its operation log log:view, besides site:view for the layout itself)
  e('emsAlarms', '/ems/baojinginfo', 'ems/baojinginfo', 'AlertOutlined', Permission.alarmView),
  e('emsStats', '/ems/statistics', 'ems/statistics', 'BarChartOutlined'),
  e('emsDevices', '/ems/devices', 'ems/devices', 'ClusterOutlined'),
  e('emsStrategy', '/ems/strategy', 'ems/strategy', 'ControlOutlined'),
  e('emsRunRecord', '/ems/records', 'ems/records', 'HistoryOutlined'),
  e('emsLog', '/ems/log', 'ems/log', 'FileTextOutlined', Permission.logView),
  // Protocols: register maps, commands and configuration parameters of the controllers.
  {
    name: 'protocols',
    type: 'M',
    url: '/com',
    ico: 'ApiOutlined',
    component: 'Layout',
    visible: true,
    permission: Permission.protocolManage,
  },
  p('protocolList', '/com/module/list', 'com/module/list', true),
  p('protocolItems', '/com/module/xieyi/:id', 'com/module/xieyi'),
  p('protocolCommands', '/com/module/zhiling/:id', 'com/module/zhiling'),
  p('moduleStatus', '/com/module/mukuai/:id', 'com/module/mukuai'),
  p('configNav', '/com/module/configNav/:id', 'com/module/configNav'),
  p('configProtocol', '/com/module/configProtocol/:id', 'com/module/configProtocol'),
  p('configRead', '/com/module/configRead/:id', 'com/module/configRead'),
  p('configSelectData', '/com/configSelect/configSelectData/:id', 'com/configSelect/configSelectData'),
  p('configCoord', '/com/configSelect/configCoord/:id', 'com/configSelect/configCoord'),
];

function g(name: string, url: string, component: string, ico: string, visible: boolean, permission?: string): MenuSeed {
  return { name, parent: 'gensets', type: 'M', url, ico, component, visible, ...(permission ? { permission } : {}) };
}

function s(name: string, url: string, component: string, ico: string, visible: boolean, permission: string): MenuSeed {
  return { name, parent: 'stations', type: 'M', url, ico, component, visible, permission };
}

function e(
  name: string,
  url: string,
  component: string,
  ico: string,
  permission: string = Permission.siteView,
): MenuSeed {
  return { name, parent: 'ems', type: 'E', url, ico, component, visible: true, permission };
}

function p(name: string, url: string, component: string, visible = false): MenuSeed {
  return {
    name,
    parent: 'protocols',
    type: 'M',
    url,
    ico: 'FileSearchOutlined',
    component,
    visible,
    permission: Permission.protocolManage,
  };
}

interface RoleSeed {
  key: string;
  permissions: string[];
  menus: string[];
  dataScope: DataScope;
}

export const COMPANY_ROLES: RoleSeed[] = [
  {
    key: 'companyAdmin',
    permissions: [
      Permission.gensetView,
      Permission.gensetManage,
      Permission.gensetControl,
      Permission.gensetReport,
      Permission.alarmView,
      Permission.userManage,
      Permission.roleManage,
      Permission.departmentManage,
      Permission.companyManage,
      Permission.siteView,
      Permission.siteManage,
      Permission.repairManage,
      Permission.logView,
      Permission.otaManage,
    ],
    menus: ['*'],
    dataScope: 'company',
  },
  {
    key: 'operator',
    permissions: [
      Permission.gensetView,
      Permission.gensetControl,
      Permission.alarmView,
      Permission.siteView,
      Permission.logView,
      Permission.repairManage,
    ],
    menus: ['*'],
    dataScope: 'department',
  },
  {
    key: 'viewer',
    permissions: [Permission.gensetView, Permission.alarmView, Permission.siteView],
    menus: ['*'],
    dataScope: 'self',
  },
  {
    key: 'personal',
    permissions: [Permission.gensetView, Permission.gensetControl, Permission.alarmView],
    menus: ['*'],
    dataScope: 'self',
  },
];

const PLATFORM_ROLE: RoleSeed = {
  key: 'platformAdmin',
  permissions: [ALL_PERMISSIONS],
  menus: ['*'],
  dataScope: 'all',
};

export async function ensureMenus(db: Db) {
  const existing = await db.selectFrom('menu').select(['id', 'name']).execute();
  const ids = new Map(existing.map((m) => [m.name, m.id]));
  for (const [sort, m] of MENU.entries()) {
    const row = {
      parent_id: m.parent ? (ids.get(m.parent) ?? null) : null,
      sort,
      type: m.type,
      url: m.url,
      name: m.name,
      ico: m.ico,
      component: m.component,
      visible: m.visible ? 1 : 0,
      external: m.external ? 1 : 0,
      permission: m.permission ?? null,
    };
    const id = ids.get(m.name);
    if (id) await db.updateTable('menu').set(row).where('id', '=', id).execute();
    else {
      const r = await db.insertInto('menu').values(row).returning('id').executeTakeFirstOrThrow();
      ids.set(m.name, r.id);
    }
  }
}

export async function ensureRoles(db: Db, companyId: number, roles: RoleSeed[]) {
  const out: Record<string, number> = {};
  for (const r of roles) {
    const found = await db
      .selectFrom('role')
      .select('id')
      .where('company_id', '=', companyId)
      .where('role_key', '=', r.key)
      .executeTakeFirst();
    if (found) {
      out[r.key] = found.id;
      continue;
    }
    const row = await db
      .insertInto('role')
      .values({
        company_id: companyId,
        role_key: r.key,
        name: `roles.${r.key}`,
        permissions: JSON.stringify(r.permissions),
        menus: JSON.stringify(r.menus),
        data_scope: r.dataScope,
        status: 1,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    out[r.key] = row.id;
  }
  return out;
}

export async function ensureCompanyRoles(db: Db, companyId: number) {
  return ensureRoles(db, companyId, COMPANY_ROLES);
}

export async function seedBase(db: Db, admin?: { account: string; password: string }) {
  await ensureMenus(db);
  const roles = await ensureRoles(db, 1, [PLATFORM_ROLE, ...COMPANY_ROLES.filter((r) => r.key === 'personal')]);
  if (admin) {
    const exists = await db.selectFrom('users').select('id').where('account', '=', admin.account).executeTakeFirst();
    if (!exists) {
      await createUser(db, {
        companyId: 1,
        roleId: roles.platformAdmin ?? null,
        account: admin.account,
        password: admin.password,
        nickname: 'Administrator',
      });
    }
  }
  return roles;
}
