// Where a camera may be: its address goes through the server's address policy when it is saved and again each
// time a stream starts (a name may resolve differently later), and ffmpeg is given the checked address itself,
// so it resolves no name of its own (an RTSP camera through a relay that goes nowhere else, rtsp-guard.ts). The
// demo camera, which the server itself runs on 127.0.0.1, is the one address taken as it is.
import { ResultCode } from '@genset/protocol';
import type { AddressPolicy, OutboundRefusal } from '../../lib/address-policy.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { withLogin, type CameraInput } from './ffmpeg.ts';

const RULES: Record<OutboundRefusal, string> = {
  self: 'validation.cameraSelf',
  private: 'validation.cameraPrivate',
  reserved: 'validation.cameraReserved',
  unresolved: 'validation.cameraUnresolved',
};

export function createCameraAddresses(opts: {
  policy: AddressPolicy;
  /** Cameras may be on private, loopback and this machine's addresses (CAMERA_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** The demo camera's address while it runs. */
  trusted: () => string | null;
}) {
  const use = { allowPrivate: opts.allowPrivate };
  return {
    /** Refuses an address being saved with a 400 on the `url` field. */
    async checkSaved(raw: string): Promise<void> {
      const checked = await opts.policy.check(raw, use);
      if (!checked.ok) throw fieldError('url', RULES[checked.reason]);
    },

    /** What ffmpeg opens for a stored address and sign-in; throws when the address is refused now. */
    async input(raw: string, login: { username: string; password: string } | null): Promise<CameraInput> {
      if (raw === opts.trusted()) return { url: withLogin(raw, login) };
      const checked = await opts.policy.check(raw, use);
      if (!checked.ok) throw new AppError(ResultCode.deviceFailed, 'video.addressRefused');
      const { target } = checked;
      const url = withLogin(target.pinned.href, login);
      if (url.protocol === 'rtsp:') return { url, rtsp: { address: target.address, port: target.port } };
      const http = url.protocol === 'http:' || url.protocol === 'https:';
      const written = new URL(raw);
      return http && target.host !== target.address ? { url, hostHeader: written.host } : { url };
    },
  };
}
export type CameraAddresses = ReturnType<typeof createCameraAddresses>;
