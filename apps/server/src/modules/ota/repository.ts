// The tables of firmware upgrades: files, campaigns and the jobs of each set.
import { OTA_OPEN_STATES, otaSpecState, type OtaJob, type OtaJobState } from '@genset/protocol';
import type { Db } from '../../db/database.ts';

export const JOB_COLUMNS = [
  'j.id',
  'j.campaign_id',
  'j.file_id',
  'j.genset_id',
  'j.modem_id',
  'j.state',
  'j.progress',
  'j.reason',
  'j.from_version',
  'j.request_id',
  'j.download_token',
  'j.created_at',
  'j.updated_at',
  'f.name as file_name',
  'f.version',
  'f.company_id',
  'g.token as set_token',
  'g.name as set_name',
] as const;

export function createOtaRepository(db: Db) {
  const jobs = () =>
    db
      .selectFrom('ota_job as j')
      .innerJoin('ota_file as f', 'f.id', 'j.file_id')
      .innerJoin('genset as g', 'g.id', 'j.genset_id')
      .select(JOB_COLUMNS);
  type JobRow = Awaited<ReturnType<ReturnType<typeof jobs>['executeTakeFirstOrThrow']>>;

  return {
    jobs,

    toJob(row: JobRow, reason: (text: string) => string): OtaJob {
      const state = row.state as OtaJobState;
      return {
        id: row.id,
        campaignId: row.campaign_id,
        fileId: row.file_id,
        fileName: row.file_name,
        version: row.version,
        setToken: row.set_token,
        setName: row.set_name,
        state,
        specState: otaSpecState(state),
        progress: Number(row.progress),
        reason: reason(row.reason),
        fromVersion: row.from_version,
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      };
    },

    fileById(companyId: number, id: number) {
      return db
        .selectFrom('ota_file')
        .selectAll()
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
    },

    files(companyId: number) {
      return db.selectFrom('ota_file').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').execute();
    },

    /** Jobs per file and state, for the files' status. */
    jobCounts(companyId: number) {
      return db
        .selectFrom('ota_job as j')
        .innerJoin('ota_file as f', 'f.id', 'j.file_id')
        .select(['j.file_id', 'j.state', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('f.company_id', '=', companyId)
        .groupBy(['j.file_id', 'j.state'])
        .execute();
    },

    async fileInUse(fileId: number) {
      const row = await db
        .selectFrom('ota_job')
        .select('id')
        .where('file_id', '=', fileId)
        .where('state', 'in', OTA_OPEN_STATES)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Sets among these that have an unfinished upgrade. */
    async busySets(gensetIds: number[]) {
      if (gensetIds.length === 0) return new Set<number>();
      const rows = await db
        .selectFrom('ota_job')
        .select('genset_id')
        .where('genset_id', 'in', gensetIds)
        .where('state', 'in', OTA_OPEN_STATES)
        .execute();
      return new Set(rows.map((r) => r.genset_id));
    },

    jobByRequest(requestId: string) {
      return jobs().where('j.request_id', '=', requestId).executeTakeFirst();
    },

    jobById(id: number) {
      return jobs().where('j.id', '=', id).executeTakeFirst();
    },

    /** Moves a job from one of `from` to `to`; false when it was no longer in one of them. */
    async move(
      id: number,
      from: readonly OtaJobState[],
      to: OtaJobState,
      set: { progress?: number; reason?: string; now: number },
    ) {
      const finished = to === 'updated' || to === 'failed' || to === 'cancelled';
      const result = await db
        .updateTable('ota_job')
        .set({
          state: to,
          updated_at: set.now,
          ...(set.progress !== undefined ? { progress: set.progress } : {}),
          ...(set.reason !== undefined ? { reason: set.reason.slice(0, 500) } : {}),
          ...(finished ? { finished_at: set.now } : {}),
        })
        .where('id', '=', id)
        .where('state', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
export type OtaRepository = ReturnType<typeof createOtaRepository>;
