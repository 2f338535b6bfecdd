// The domain catalogs merged into the server's messages (see ../messages.ts). One line per domain file.
import type { Language } from '@genset/protocol';
import menu from './menu.ts';
import gensets from './gensets.ts';
import history from './history.ts';
import protocolDocuments from './protocol-documents.ts';
import groups from './groups.ts';
import reports from './reports.ts';
import limits from './limits.ts';
import video from './video.ts';
import repairs from './repairs.ts';
import transfers from './transfers.ts';
import notifications from './notifications.ts';
import maintenance from './maintenance.ts';
import ota from './ota.ts';
import iotcard from './iotcard.ts';
import tracks from './tracks.ts';
import sites from './sites.ts';
import roles from './roles.ts';
import admin from './admin.ts';
import scope from './scope.ts';
import security from './security.ts';
import authority from './authority.ts';
import oplog from './oplog.ts';
import push from './push.ts';
import mail from './mail.ts';
import messages from './messages.ts';
import alarmStats from './alarm-stats.ts';
import alarmRules from './alarm-rules.ts';

export type DomainCatalog = Record<Language, Record<string, string>>;

export const domains: DomainCatalog[] = [
  menu,
  alarmStats,
  alarmRules,
  history,
  gensets,
  protocolDocuments,
  groups,
  reports,
  limits,
  video,
  repairs,
  notifications,
  transfers,
  maintenance,
  iotcard,
  tracks,
  ota,
  sites,
  roles,
  admin,
  scope,
  authority,
  security,
  oplog,
  push,
  mail,
  messages,
];
