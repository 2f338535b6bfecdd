// ffmpeg's RTSP client follows a `3xx` reply's Location to any host (libavformat/rtsp.c, ff_rtsp_connect:
// "Status %d: Redirecting to %s"), and has no option to stop it. So ffmpeg and ffprobe never open an RTSP camera
// themselves: each of them gets a relay of its own, a listener on 127.0.0.1 at a port the system picks, which
// connects to the address the address policy checked and nowhere else, passes ffmpeg's requests on as they are,
// and reads what the camera sends message by message before passing it on. A reply with a 3xx status, a REDIRECT
// request from the camera, or anything the relay cannot read exactly as ffmpeg reads it ends both connections:
// ffmpeg sees the camera hang up and fails as with any camera that cannot be read.
//
// What the camera sees: the first request lines name the relay (rtsp://127.0.0.1:<port>/path), as ffmpeg writes
// them (later ones the camera's own Content-Base). They are not rewritten to the camera's address: with Digest
// sign-in ffmpeg's answer is computed over that very URI, which a rewrite would break. RTSP servers commonly go
// by the path alone, but a camera that insists on requests naming its own host would answer them with a 4xx and
// cannot be watched.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { CameraInput } from './ffmpeg.ts';

/** Where the relay may connect: the address and port the address policy checked. */
export interface RtspTarget {
  address: string;
  port: number;
}

/** ffmpeg reads a header line into 4096 bytes and cuts the rest; longer lines are refused, not guessed at. */
const MAX_LINE = 4000;
/** A message head longer than this is no camera's. */
const MAX_HEAD = 64 * 1024;
/** A body (an SDP, a parameter answer) longer than this is no camera's either. */
const MAX_BODY = 4 * 1024 * 1024;
/**
 * An interleaved frame shorter than this is refused: while streaming, ffmpeg does not skip a frame under 8 bytes
 * (rtspdec.c, ff_rtsp_tcp_read_packet) but reads its bytes as the start of an RTSP message. No RTP or RTCP
 * packet is that short.
 */
const MIN_FRAME = 8;

/** What the camera sent that ends the relay, in words for the log. */
export type Refusal = string;

/**
 * Reads the camera's side of an RTSP-over-TCP connection the way ffmpeg does (ff_rtsp_read_reply): interleaved
 * frames (`$`, channel, 16-bit length, payload) where a line would start, else a head of lines ended by `\n`
 * (every `\r` dropped) up to an empty line, then Content-Length bytes of body (the last such header counts, read
 * as strtol reads it). `feed` answers the bytes that may be passed on now, or the reason to stop.
 */
export function createCameraReader() {
  type State =
    | { kind: 'head'; lines: number; lineLength: number; bytes: number }
    | { kind: 'frameHeader'; have: number[] }
    | { kind: 'frame'; left: number }
    | { kind: 'body'; left: number };
  let state: State = { kind: 'head', lines: 0, lineLength: 0, bytes: 0 };
  /** The head being read: held back until it is judged. */
  let head: number[] = [];
  let refused: Refusal | null = null;

  const newHead = (): State => ({ kind: 'head', lines: 0, lineLength: 0, bytes: 0 });

  function judge(text: string): { refusal: Refusal } | { body: number } {
    const lines = text.split('\n').map((line) => line.replace(/\r/g, ''));
    const first = lines[0]!.replace(/^[ \t]+/, '');
    const [word = '', second = ''] = first.split(/[ \t]+/);
    if (word.startsWith('RTSP/')) {
      const status = /^[+-]?\d{1,9}/.exec(second);
      const code = status ? Number(status[0]) : 0;
      if (code >= 300 && code < 400) return { refusal: `the camera answered ${code} (a redirect), not followed` };
      if (!((code >= 100 && code < 300) || (code >= 400 && code < 600)))
        return { refusal: `the camera answered with status "${second.slice(0, 20)}"` };
    } else if (word.toUpperCase() === 'REDIRECT') {
      return { refusal: 'the camera sent a REDIRECT request, not followed' };
    }
    let body = 0;
    for (const line of lines.slice(1)) {
      if (!/^content-length:/i.test(line)) continue;
      const value = /^[ \t\n\v\f\r]*([+-]?)(\d*)/.exec(line.slice('content-length:'.length))!;
      const digits = value[2]!.replace(/^0+(?=\d)/, '');
      if (digits.length > 9) return { refusal: 'the camera announced a body longer than any camera sends' };
      body = value[1] === '-' ? -Number(digits || 0) : Number(digits || 0);
    }
    if (body > MAX_BODY) return { refusal: 'the camera announced a body longer than any camera sends' };
    return { body: Math.max(body, 0) };
  }

  return {
    /** Why the camera was cut off, once it was. */
    refusal: () => refused,

    /** The bytes of `chunk` (with any held back before) that may go to ffmpeg now; null once refused. */
    feed(chunk: Buffer): Buffer | null {
      if (refused) return null;
      const out: Buffer[] = [];
      let from = 0;
      let i = 0;
      const pass = (end: number) => {
        if (end > from) out.push(chunk.subarray(from, end));
        from = end;
      };
      const refuse = (why: Refusal) => {
        refused = why;
        return null;
      };
      while (i < chunk.length) {
        const s = state;
        if (s.kind === 'frame' || s.kind === 'body') {
          const take = Math.min(s.left, chunk.length - i);
          i += take;
          s.left -= take;
          if (s.left === 0) state = newHead();
          continue;
        }
        if (s.kind === 'frameHeader') {
          s.have.push(chunk[i]!);
          i += 1;
          if (s.have.length === 3) {
            const length = (s.have[1]! << 8) | s.have[2]!;
            if (length < MIN_FRAME) return refuse(`the camera sent an interleaved frame of ${length} bytes`);
            state = { kind: 'frame', left: length };
          }
          continue;
        }
        // a head: held back byte by byte until its empty line
        const byte = chunk[i]!;
        pass(i);
        i += 1;
        from = i;
        if (byte === 0x24 /* $ */ && s.lineLength === 0) {
          if (s.lines > 0) return refuse('the camera started an interleaved frame inside a message head');
          // a frame where a message could start (after stray \r at most): passed on as it comes
          out.push(Buffer.from(head), Buffer.from([byte]));
          head = [];
          state = { kind: 'frameHeader', have: [] };
          continue;
        }
        head.push(byte);
        s.bytes += 1;
        if (s.bytes > MAX_HEAD) return refuse('the camera sent a message head longer than any camera sends');
        if (byte === 0x0d /* \r */) continue;
        if (byte !== 0x0a /* \n */) {
          s.lineLength += 1;
          if (s.lineLength > MAX_LINE) return refuse('the camera sent a header line longer than ffmpeg reads');
          continue;
        }
        if (s.lineLength === 0 && s.lines === 0) {
          // an empty line where a message would start: ffmpeg reads it as an empty message, and so does this
          out.push(Buffer.from(head));
          head = [];
          state = newHead();
          continue;
        }
        if (s.lineLength > 0) {
          s.lines += 1;
          s.lineLength = 0;
          continue;
        }
        const verdict = judge(Buffer.from(head).toString('latin1'));
        if ('refusal' in verdict) return refuse(verdict.refusal);
        out.push(Buffer.from(head));
        head = [];
        state = verdict.body > 0 ? { kind: 'body', left: verdict.body } : newHead();
      }
      pass(chunk.length);
      return Buffer.concat(out);
    },
  };
}

export interface RtspRelay {
  /** The port on 127.0.0.1 that ffmpeg is to open instead of the camera. */
  port: number;
  /** Why the relay cut the camera off, if it did. */
  refusal(): Refusal | null;
  /** Ends the listener and both connections; safe to call more than once. */
  close(): void;
  /** Settles once the listener and both connections are closed. */
  closed: Promise<void>;
}

/**
 * A relay for one ffmpeg or ffprobe: takes one connection on 127.0.0.1 (then listens no more), connects it to
 * the checked target, and passes the camera's messages on only after reading them (see createCameraReader). It
 * ends when either side closes, when the camera sends what is refused, or on close().
 */
export async function openRtspRelay(target: RtspTarget): Promise<RtspRelay> {
  const reader = createCameraReader();
  const sockets = new Set<Socket>();
  let ended = false;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let listening = true;
  const server: Server = createServer({ pauseOnConnect: true, noDelay: true });

  const settle = () => {
    if (ended && !listening && sockets.size === 0) markClosed();
  };
  const stopListening = () => {
    if (!server.listening) {
      listening = false;
      settle();
      return;
    }
    server.close(() => {
      listening = false;
      settle();
    });
  };
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      end(false);
      settle();
    });
    socket.on('error', () => end(true));
  };
  /**
   * Ends the relay: `hard` drops both connections at once (a refusal, an error, the caller's close); otherwise
   * what one side said last still reaches the other before its connection ends.
   */
  function end(hard: boolean) {
    const first = !ended;
    ended = true;
    stopListening();
    for (const socket of sockets) {
      if (hard) socket.destroy();
      else socket.end();
    }
    if (first && !hard && sockets.size) setTimeout(() => end(true), 2_000).unref();
    settle();
  }

  server.on('connection', (ffmpeg: Socket) => {
    if (ended || sockets.size > 0) {
      ffmpeg.destroy();
      return;
    }
    stopListening();
    track(ffmpeg);
    const camera = connect({ host: target.address, port: target.port, noDelay: true });
    track(camera);
    camera.once('connect', () => {
      ffmpeg.pipe(camera);
      ffmpeg.resume();
    });
    camera.on('data', (chunk: Buffer) => {
      const pass = reader.feed(chunk);
      if (pass === null) {
        end(true);
        return;
      }
      if (pass.length && !ffmpeg.write(pass)) {
        camera.pause();
        ffmpeg.once('drain', () => camera.resume());
      }
    });
    camera.once('end', () => end(false));
    ffmpeg.once('end', () => end(false));
  });
  server.on('error', () => end(true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, refusal: reader.refusal, close: () => end(true), closed };
}

/**
 * What ffmpeg or ffprobe is to open for a camera: an RTSP camera's address turned into a relay of its own to the
 * checked address (the path, query and sign-in kept), any other address as it is. The caller closes the relay
 * when its program has ended.
 */
export async function relayedInput(input: CameraInput): Promise<{ input: CameraInput; relay: RtspRelay | null }> {
  if (!input.rtsp) return { input, relay: null };
  const relay = await openRtspRelay(input.rtsp);
  const url = new URL(input.url.href);
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return { input: { url }, relay };
}
