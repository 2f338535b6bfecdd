// The demo's firmware: the module image every demo set runs (2.4.1), with the upgrade from 2.4.0 that brought it
// to the fleet three weeks ago, every set updated; and the next image (2.5.0), ready to be assigned, which the
// demo modules really download, check and install.
import { mkdir, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildModuleImage } from '@genset/gateway';
import type { Db } from '../../db/database.ts';

const DAY = 86_400_000;
export const DEMO_MODULE_MODEL = 'GC-4G';
/** What the demo modules run now (their configured version) and what ran before. */
export const DEMO_FIRMWARE_RUNNING = '2.4.1';
const DEMO_FIRMWARE_BEFORE = '2.4.0';
export const DEMO_FIRMWARE_NEXT = '2.5.0';

async function storeImage(dataDir: string, version: string) {
  const image = buildModuleImage({ version });
  const dir = join(dataDir, 'firmware');
  await mkdir(dir, { recursive: true });
  const storedName = `${randomBytes(16).toString('hex')}.bin`;
  await writeFile(join(dir, storedName), image, { flag: 'wx' });
  return {
    storedName,
    size: image.length,
    md5: createHash('md5').update(image).digest('hex'),
    sha256: createHash('sha256').update(image).digest('hex'),
  };
}

/**
 * Once per company (when it has no firmware file yet): the two module images, and the finished upgrade of the
 * demo sets (`gensets`, with their modem ids) to the running one.
 */
export async function giveDemoFirmware(opts: {
  db: Db;
  dataDir: string;
  companyId: number;
  createdBy: number | null;
  gensets: { id: number; modemId: number }[];
  now?: number;
}): Promise<void> {
  const { db, companyId } = opts;
  const now = opts.now ?? Date.now();
  const any = await db.selectFrom('ota_file').select('id').where('company_id', '=', companyId).executeTakeFirst();
  if (any) return;
  const file = async (version: string, at: number) => {
    const stored = await storeImage(opts.dataDir, version);
    const row = await db
      .insertInto('ota_file')
      .values({
        company_id: companyId,
        name: `${DEMO_MODULE_MODEL} module firmware ${version}`,
        version,
        target: 'module',
        model: DEMO_MODULE_MODEL,
        size: stored.size,
        md5: stored.md5,
        sha256: stored.sha256,
        stored_name: stored.storedName,
        created_by: opts.createdBy,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const releasedAt = now - 23 * DAY;
  const running = await file(DEMO_FIRMWARE_RUNNING, releasedAt);
  await file(DEMO_FIRMWARE_NEXT, now - 2 * DAY);
  if (opts.gensets.length === 0) return;
  // the upgrade to the running version: two at a time in the night window, each set about ten minutes
  const campaignAt = releasedAt + 2 * 60 * 60_000;
  const campaign = await db
    .insertInto('ota_campaign')
    .values({
      file_id: running,
      company_id: companyId,
      concurrency: 2,
      window_start: 1,
      window_end: 5,
      created_by: opts.createdBy,
      created_at: campaignAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [i, set] of opts.gensets.entries()) {
    const started = campaignAt + Math.floor(i / 2) * 12 * 60_000 + 60_000;
    const finished = started + 9 * 60_000 + i * 17_000;
    await db
      .insertInto('ota_job')
      .values({
        campaign_id: campaign.id,
        file_id: running,
        genset_id: set.id,
        modem_id: set.modemId,
        state: 'updated',
        progress: 100,
        reason: '',
        from_version: DEMO_FIRMWARE_BEFORE,
        request_id: null,
        download_token: null,
        created_at: campaignAt,
        started_at: started,
        updated_at: finished,
        finished_at: finished,
      })
      .execute();
  }
}
