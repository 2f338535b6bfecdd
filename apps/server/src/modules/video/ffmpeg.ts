// Where ffmpeg is, what a camera sends, and the one command line that turns a camera into HLS. Every
// program here is started with an argument array (never a shell), and the camera's address is one argument.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { relayedInput, type RtspTarget } from './rtsp-guard.ts';

export interface FfmpegPrograms {
  ffmpeg: string;
  /** ffprobe beside it, when there is one: without it every camera is re-encoded. */
  ffprobe: string | null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * ffmpeg at FFMPEG_PATH (a wrong path is not replaced by another ffmpeg), else in PATH, else in the usual
 * places; null when there is none.
 */
export function findFfmpeg(
  configured: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): FfmpegPrograms | null {
  let ffmpeg: string | undefined;
  if (configured) ffmpeg = executable(configured) ? configured : undefined;
  else {
    const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d && !d.includes('node_modules'));
    ffmpeg = [...dirs.map((d) => join(d, 'ffmpeg')), '/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'].find(executable);
  }
  if (!ffmpeg) return null;
  const probe = join(dirname(ffmpeg), 'ffprobe');
  return { ffmpeg, ffprobe: executable(probe) ? probe : null };
}

/**
 * What ffmpeg opens: the camera's address with its host replaced by the address the address policy checked
 * (ffmpeg resolves no name), and the host name as written, sent as the Host header of an HTTP camera. An RTSP
 * camera comes with the checked address and port as `rtsp`: ffmpeg is then given a relay to it instead
 * (rtsp-guard.ts), never the camera itself, since its RTSP client would follow a redirect anywhere.
 */
export interface CameraInput {
  url: URL;
  hostHeader?: string | undefined;
  rtsp?: RtspTarget | undefined;
}

/**
 * The containers a camera's stream may come in: ones that read the one connection and open no address of their
 * own. Playlists and manifests (HLS, DASH), concat lists and SDP files name further addresses, which ffmpeg
 * would fetch without the address policy seeing them: they are not on the list.
 */
export const CAMERA_FORMATS = [
  'rtsp',
  'mpegts',
  'flv',
  'live_flv',
  'mjpeg',
  'mpjpeg',
  'h264',
  'hevc',
  'mov',
  'matroska',
  'webm',
  'avi',
  'asf',
].join(',');

/**
 * How ffmpeg and ffprobe open a camera: network protocols only (an address can never make them open a file), the
 * containers of CAMERA_FORMATS only (no playlist sends them elsewhere), no HTTP redirect followed (a camera
 * cannot send them to an address the policy refused), and a bound on how long they wait on a silent camera (µs).
 */
export function inputOptions({ url, hostHeader }: CameraInput): string[] {
  const common = [
    '-protocol_whitelist',
    'rtsp,rtp,srtp,udp,tcp,tls,http,https,httpproxy,crypto',
    '-format_whitelist',
    CAMERA_FORMATS,
  ];
  if (url.protocol === 'rtsp:') return [...common, '-rtsp_transport', 'tcp', '-timeout', '10000000'];
  const host = hostHeader ? ['-headers', `Host: ${hostHeader}\r\n`] : [];
  return [...common, '-max_redirects', '0', ...host, '-rw_timeout', '10000000'];
}

export interface VideoFormat {
  codec: string;
  pixelFormat: string;
}

export interface ProbeResult {
  /** Null when the camera could not be read within the time. */
  format: VideoFormat | null;
  /** What ffprobe said went wrong, sign-in taken out. */
  error: string;
}

/**
 * What the camera's first video stream is (codec and pixel format), by ffprobe (through a relay of its own for an
 * RTSP camera, closed when ffprobe ends).
 */
export async function probeCamera(ffprobe: string, camera: CameraInput, timeoutMs = 10_000): Promise<ProbeResult> {
  let opened: Awaited<ReturnType<typeof relayedInput>>;
  try {
    opened = await relayedInput(camera);
  } catch (err) {
    return { format: null, error: `no relay to the camera: ${(err as Error).message}` };
  }
  const { input, relay } = opened;
  const { url } = input;
  return new Promise((resolve) => {
    const child = spawn(
      ffprobe,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        ...inputOptions(input),
        '-analyzeduration',
        '2000000',
        '-probesize',
        '2000000',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=codec_name,pix_fmt',
        '-of',
        'json',
        url.href,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let error = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (error.length < 2000) error += chunk;
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (out.length < 64_000) out += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      relay?.close();
      resolve({ format: null, error: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      relay?.close();
      const refused = relay?.refusal();
      const said =
        (refused ? `${refused}; ` : '') +
        (scrub(error.trim(), url) || (code === null ? 'no answer in time' : `ffprobe exited with ${code}`));
      try {
        const stream = (JSON.parse(out) as { streams?: { codec_name?: string; pix_fmt?: string }[] }).streams?.[0];
        resolve(
          code === 0 && stream?.codec_name && !refused
            ? { format: { codec: stream.codec_name, pixelFormat: stream.pix_fmt ?? '' }, error: '' }
            : { format: null, error: said },
        );
      } catch {
        resolve({ format: null, error: said });
      }
    });
  });
}

/** H.264 in 4:2:0 plays in every browser as it comes; anything else (H.265, MJPEG, 10-bit …) is re-encoded. */
export function canCopy(format: VideoFormat | null): boolean {
  return format?.codec === 'h264' && (format.pixelFormat === 'yuv420p' || format.pixelFormat === 'yuvj420p');
}

/** Seconds of video per HLS segment, and segments in the playlist. */
export const SEGMENT_SECONDS = 2;
export const PLAYLIST_SEGMENTS = 4;
export const PLAYLIST = 'index.m3u8';
/** Names ffmpeg gives the segments; the file route serves nothing else. */
export const STREAM_FILE = /^(index\.m3u8|seg-\d{1,9}\.ts)$/;

/**
 * ffmpeg's arguments for one camera: video only, copied when the browser can play it as it is, else H.264
 * (veryfast, zerolatency, at most 1280 px wide, a key frame every segment); short segments of which the
 * playlist keeps a few, older ones deleted. Progress goes to stdout: a stream whose frame count stops moving has
 * lost its camera.
 */
export function hlsArguments(input: CameraInput, outDir: string, copy: boolean): string[] {
  const { url } = input;
  const encode = copy
    ? ['-c:v', 'copy']
    : [
        '-vf',
        "scale='min(1280,iw)':-2",
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-tune',
        'zerolatency',
        '-pix_fmt',
        'yuv420p',
        '-force_key_frames',
        `expr:gte(t,n_forced*${SEGMENT_SECONDS})`,
      ];
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-progress',
    'pipe:1',
    '-stats_period',
    '2',
    ...inputOptions(input),
    '-analyzeduration',
    '2000000',
    '-probesize',
    '2000000',
    '-i',
    url.href,
    '-map',
    '0:v:0',
    '-an',
    ...encode,
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_list_size',
    String(PLAYLIST_SEGMENTS),
    '-hls_flags',
    'delete_segments+temp_file+independent_segments',
    '-hls_segment_filename',
    join(outDir, 'seg-%05d.ts'),
    join(outDir, PLAYLIST),
  ];
}

/** The address with the camera's sign-in in it (percent-encoded by URL), for ffmpeg only. */
export function withLogin(address: string, login: { username: string; password: string } | null): URL {
  const url = new URL(address);
  if (login) {
    url.username = login.username;
    url.password = login.password;
  }
  return url;
}

/** A line of ffmpeg's output with the camera's sign-in taken out, for the log. */
export function scrub(line: string, url: URL): string {
  let out = line.replace(/\/\/[^/@\s]*@/g, '//***@');
  for (const secret of new Set([url.password, safeDecode(url.password)])) {
    if (secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
