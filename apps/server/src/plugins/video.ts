// Cameras of the sets and their live video: the calls, the streams (one ffmpeg per watched camera, all
// stopped when the server closes) and, with the demo fleet, the demo camera. Without ffmpeg cameras can still
// be managed; watching answers that the server has no ffmpeg.
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { findFfmpeg } from '../modules/video/ffmpeg.ts';
import { createLoginCipher, videoSecret } from '../modules/video/secrets.ts';
import { createStreams, type Streams } from '../modules/video/streams.ts';
import { createVideoService } from '../modules/video/service.ts';
import { createCameraAddresses } from '../modules/video/camera-address.ts';
import { videoRoutes } from '../modules/video/routes.ts';
import type { DemoCamera } from '../modules/video/demo-camera.ts';

declare module 'fastify' {
  interface FastifyInstance {
    video: { streams: Streams | null; demoCamera: DemoCamera | null };
  }
}

export default fp(
  async function video(app: FastifyInstance) {
    const { config } = app;
    const programs = findFfmpeg(config.ffmpegPath);
    if (!programs) {
      app.log.warn(
        config.ffmpegPath ? { FFMPEG_PATH: config.ffmpegPath } : {},
        'ffmpeg not found: camera video is not available (install ffmpeg or set FFMPEG_PATH)',
      );
    }
    const streams = programs ? createStreams({ programs, rootDir: join(config.dataDir, 'video'), log: app.log }) : null;
    const cipher = createLoginCipher(videoSecret(config.videoSecret, config.dataDir));
    let demoCamera: DemoCamera | null = null;
    const addresses = createCameraAddresses({
      policy: app.outbound,
      allowPrivate: config.cameraAllowPrivate,
      trusted: () => demoCamera?.url ?? null,
    });
    const service = createVideoService({
      db: app.database.db,
      devices: app.devices.service,
      cipher,
      streams,
      addresses,
    });

    if (programs && config.demo && config.demoFleet) {
      const { attachDemoCamera, startDemoCamera } = await import('../modules/video/demo-camera.ts');
      demoCamera = await startDemoCamera({ ffmpeg: programs.ffmpeg, log: app.log });
      await attachDemoCamera(app.database.db, demoCamera.url);
    }
    app.decorate('video', { streams, demoCamera });

    app.addHook('preClose', async () => {
      await streams?.close();
      await demoCamera?.close();
    });
    await app.register(videoRoutes, { prefix: API_BASE, video: service, streams });
  },
  { name: 'video', dependencies: ['devices'] },
);
