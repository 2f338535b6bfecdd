// Every migration in order. Written once with Kysely's schema builder; run on SQLite and PostgreSQL. Numbers
// were handed out to features built side by side, so a database may have run a later one first: the migrator
// accepts that (`allowUnorderedMigrations`).
import type { Migration } from 'kysely';
import type { DbKind } from '../database.ts';
import { accounts } from './001-accounts.ts';
import { devices } from './002-devices.ts';
import { itemSelection } from './003-item-selection.ts';
import { gensets } from './004-gensets.ts';
import { history } from './005-history.ts';
import { ingestState } from './006-ingest-state.ts';
import { brokerCredentials } from './007-broker-credentials.ts';
import { partitions } from './007-partitions.ts';
import { setMerged } from './008-set-merged.ts';
import { subscriptionVersion } from './009-subscription-version.ts';
import { gensetGroups } from './010-genset-groups.ts';
import { reports } from './011-reports.ts';
import { cameras } from './012-cameras.ts';
import { repairs } from './014-repairs.ts';
import { transfers } from './013-transfers.ts';
import { notifications } from './015-notifications.ts';
import { maintenance } from './016-maintenance.ts';
import { ota } from './019-ota.ts';
import { simUsage } from './017-sim-usage.ts';
import { tracks } from './018-tracks.ts';
import { controllerFirmware } from './020-controller-firmware.ts';
import { sites } from './021-sites.ts';
import { siteTotals } from './022-site-totals.ts';
import { administration } from './023-administration.ts';
import { rolesInvitations } from './024-roles-invitations.ts';
import { dataScope } from './025-data-scope.ts';
import { demoModuleSecrets } from './026-demo-module-secrets.ts';
import { transferAddressee } from './027-transfer-addressee.ts';
import { accountLanguage } from './028-account-language.ts';
import { groupCommands } from './029-group-commands.ts';
import { subscriptionVersionStatements } from './030-subscription-version-statements.ts';
import { messageLog } from './031-message-log.ts';
import { pushSubscriptions } from './032-push-subscriptions.ts';
import { alarmEpisodes } from './033-alarm-episodes.ts';
import { alarmShelving } from './034-alarm-shelving.ts';
import { alarmRules } from './035-alarm-rules.ts';
import { alarmPolicy } from './036-alarm-policy.ts';

export function migrations(kind: DbKind): Record<string, Migration> {
  return {
    '001-accounts': accounts(kind),
    '002-devices': devices(kind),
    '003-item-selection': itemSelection(kind),
    '004-gensets': gensets(kind),
    '005-history': history(kind),
    '006-ingest-state': ingestState(),
    '007-broker-credentials': brokerCredentials(),
    '007-partitions': partitions(kind),
    '008-set-merged': setMerged(),
    '009-subscription-version': subscriptionVersion(kind),
    '010-genset-groups': gensetGroups(kind),
    '011-reports': reports(kind),
    '012-cameras': cameras(kind),
    '014-repairs': repairs(kind),
    '013-transfers': transfers(kind),
    '015-notifications': notifications(kind),
    '016-maintenance': maintenance(kind),
    '017-sim-usage': simUsage(),
    '018-tracks': tracks(),
    '020-controller-firmware': controllerFirmware(),
    '019-ota': ota(kind),
    '021-sites': sites(kind),
    '022-site-totals': siteTotals(),
    '023-administration': administration(),
    '024-roles-invitations': rolesInvitations(kind),
    '025-data-scope': dataScope(),
    '026-demo-module-secrets': demoModuleSecrets(),
    '027-transfer-addressee': transferAddressee(kind),
    '028-account-language': accountLanguage(),
    '029-group-commands': groupCommands(kind),
    '030-subscription-version-statements': subscriptionVersionStatements(kind),
    '031-message-log': messageLog(kind),
    '032-push-subscriptions': pushSubscriptions(kind),
    '033-alarm-episodes': alarmEpisodes(),
    '034-alarm-shelving': alarmShelving(),
    '035-alarm-rules': alarmRules(kind),
    '036-alarm-policy': alarmPolicy(),
  };
}
