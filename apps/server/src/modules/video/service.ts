// Cameras of a set and watching them. Anyone who may see the set may watch its cameras; adding, editing and
// removing them takes manage rights and goes to the set's operation log. Camera sign-ins are sealed before
// they are stored and are never returned; the address a viewer's ffmpeg opens is put together here.
import {
  CAMERAS_PER_SET_MAX,
  ResultCode,
  VIDEO_RENEW_SECONDS,
  type CameraItem,
  type CameraListResponse,
  type VideoRenewResponse,
  type VideoWatchResponse,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import { atLeast, type GensetRow } from '../devices/fleet.ts';
import type { DeviceService } from '../devices/service.ts';
import type { CameraAddresses } from './camera-address.ts';
import type { LoginCipher } from './secrets.ts';
import { StreamFailure, type Streams } from './streams.ts';
import { writeSetLog } from '../../lib/operation-log.ts';

export interface VideoCaller {
  ctx: SessionContext;
  ip: string;
}

export const VIDEO_BASE = '/yewu/video/live';

export function createVideoService(opts: {
  db: Db;
  devices: DeviceService;
  cipher: LoginCipher;
  /** Null when ffmpeg is not installed: cameras can be kept, not watched. */
  streams: Streams | null;
  /** Where a camera may be (the server's address policy). */
  addresses: CameraAddresses;
}) {
  const { db, devices, cipher, streams, addresses } = opts;

  const log = (caller: VideoCaller, set: GensetRow, matter: string, feedback: Record<string, unknown>) =>
    writeSetLog(db, { ctx: caller.ctx, ip: caller.ip, set, matter, feedback });

  async function cameraOf(set: GensetRow, id: number) {
    const camera = await db
      .selectFrom('camera')
      .selectAll()
      .where('id', '=', id)
      .where('genset_id', '=', set.id)
      .executeTakeFirst();
    if (!camera) throw notFound();
    return camera;
  }

  /** The sealed sign-in for what the form sent: a user name (with an optional password) or none. */
  function sealLogin(username: string | null | undefined, password: string | undefined): string | null {
    return username ? cipher.seal({ username, password: password ?? '' }) : null;
  }

  function unavailable() {
    return new AppError(ResultCode.unavailable, 'video.noFfmpeg');
  }

  return {
    available: streams !== null,

    async list(caller: VideoCaller, token: string): Promise<CameraListResponse> {
      const { set, rights } = await devices.resolve(caller.ctx, token, 'view');
      const manage = atLeast(rights, 'manage');
      const rows = await db
        .selectFrom('camera')
        .select(['id', 'name', 'url', 'login'])
        .where('genset_id', '=', set.id)
        .orderBy('sort')
        .orderBy('id')
        .execute();
      const cameras: CameraItem[] = rows.map((row) => ({
        id: row.id,
        name: row.name,
        url: manage ? row.url : null,
        hasLogin: manage && row.login !== null,
      }));
      return { setName: set.name, cameras, manage, available: streams !== null };
    },

    async add(
      caller: VideoCaller,
      input: { token: string; name: string; url: string; username?: string | undefined; password?: string | undefined },
    ) {
      const { set } = await devices.resolve(caller.ctx, input.token, 'manage');
      await addresses.checkSaved(input.url);
      const count = await db
        .selectFrom('camera')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('genset_id', '=', set.id)
        .executeTakeFirst();
      if (Number(count?.n ?? 0) >= CAMERAS_PER_SET_MAX)
        throw new AppError(ResultCode.conflict, 'video.tooManyCameras', { max: CAMERAS_PER_SET_MAX });
      const now = Date.now();
      const row = await db
        .insertInto('camera')
        .values({
          genset_id: set.id,
          name: input.name,
          url: input.url,
          login: sealLogin(input.username, input.password),
          sort: Number(count?.n ?? 0),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await log(caller, set, 'log.cameraAdded', { name: input.name });
      return { id: row.id };
    },

    async update(
      caller: VideoCaller,
      input: {
        token: string;
        id: number;
        name?: string | undefined;
        url?: string | undefined;
        username?: string | null | undefined;
        password?: string | undefined;
      },
    ) {
      const { set } = await devices.resolve(caller.ctx, input.token, 'manage');
      const camera = await cameraOf(set, input.id);
      if (input.url !== undefined) await addresses.checkSaved(input.url);
      const changes: { name?: string; url?: string; login?: string | null; updated_at: number } = {
        updated_at: Date.now(),
      };
      if (input.name !== undefined) changes.name = input.name;
      if (input.url !== undefined) changes.url = input.url;
      if (input.username !== undefined) changes.login = sealLogin(input.username, input.password);
      await db.updateTable('camera').set(changes).where('id', '=', camera.id).execute();
      // viewers of the old address or sign-in start again on the new one
      if (changes.url !== undefined || changes.login !== undefined) streams?.stopCamera(camera.id);
      const fields = ['name', 'url', 'username'].filter((k) => input[k as keyof typeof input] !== undefined);
      await log(caller, set, 'log.cameraUpdated', { name: changes.name ?? camera.name, fields: fields.join(', ') });
      return null;
    },

    async remove(caller: VideoCaller, token: string, id: number) {
      const { set } = await devices.resolve(caller.ctx, token, 'manage');
      const camera = await cameraOf(set, id);
      await db.deleteFrom('camera').where('id', '=', camera.id).execute();
      streams?.stopCamera(camera.id);
      await log(caller, set, 'log.cameraDeleted', { name: camera.name });
      return null;
    },

    /**
     * A lease on the camera's live picture for someone who may see the set, once the first segment exists:
     * 503 without ffmpeg, 502 when the camera cannot be reached, 504 when it sends nothing in time.
     */
    async watch(caller: VideoCaller, token: string, id: number): Promise<VideoWatchResponse> {
      const { set } = await devices.resolve(caller.ctx, token, 'view');
      const camera = await cameraOf(set, id);
      if (!streams) throw unavailable();
      try {
        const lease = await streams.watch(camera.id, { userId: caller.ctx.user.id, setToken: set.token }, async () => {
          // read again: the row may have changed while a stream was stopping
          const row = await db
            .selectFrom('camera')
            .select(['url', 'login'])
            .where('id', '=', camera.id)
            .executeTakeFirst();
          if (!row) throw notFound();
          const login = row.login === null ? null : cipher.open(row.login);
          if (row.login !== null && !login) throw new AppError(ResultCode.conflict, 'video.loginUnreadable');
          return addresses.input(row.url, login);
        });
        return { lease: lease.id, playlist: `${VIDEO_BASE}/${lease.id}/index.m3u8`, renewSeconds: VIDEO_RENEW_SECONDS };
      } catch (err) {
        if (err instanceof StreamFailure)
          throw err.problem === 'timeout'
            ? new AppError(ResultCode.deviceTimeout, 'video.timeout')
            : new AppError(ResultCode.deviceFailed, 'video.unreachable');
        throw err;
      }
    },

    /**
     * Keeps a lease alive while its viewer may still see the set (checked again each time): 404 for a lease
     * that has ended or is someone else's, or when the rights are gone (the lease ends with it).
     */
    async renew(caller: VideoCaller, leaseId: string): Promise<VideoRenewResponse> {
      const lease = streams?.lease(leaseId);
      if (!lease || lease.userId !== caller.ctx.user.id) throw notFound();
      try {
        await devices.resolve(caller.ctx, lease.setToken, 'view');
        await cameraOfToken(lease.setToken, lease.cameraId);
      } catch (err) {
        streams!.release(lease.id);
        throw err;
      }
      return streams!.renew(lease);
    },

    async leave(caller: VideoCaller, leaseId: string) {
      const lease = streams?.lease(leaseId);
      if (lease && lease.userId === caller.ctx.user.id) streams!.release(lease.id);
      return null;
    },
  };

  async function cameraOfToken(token: string, cameraId: number) {
    const row = await db
      .selectFrom('camera')
      .innerJoin('genset', 'genset.id', 'camera.genset_id')
      .select('camera.id')
      .where('camera.id', '=', cameraId)
      .where('genset.token', '=', token)
      .executeTakeFirst();
    if (!row) throw notFound();
  }
}
export type VideoService = ReturnType<typeof createVideoService>;
