// The demo's rental trailer: it works a shift at its yard, stops, drives at road speed to a site beyond its
// 3 km fence, works there, stops and drives back. It generates only while parked and moves only while its
// engine stands still, as a trailer-mounted set does (nobody tows a running set down the road).
import type { GensetModel } from '@genset/simulator';

/** The trailer's road from its yard to the far site (driven out and back, never jumped): the far end lies outside its 3 km fence. */
export const TRAILER_PATH = [
  { lat: 41.0082, lon: 28.9784 },
  { lat: 41.0151, lon: 28.9795 },
  { lat: 41.0255, lon: 28.9742 },
  { lat: 41.0369, lon: 28.9851 },
  { lat: 41.0422, lon: 29.0083 },
];
/** Road speed. */
export const TRAILER_KMH = 50;
/** Minutes the trailer works where it is parked before it stops to move on. */
export const TRAILER_WORK_MIN = 8;

/** Minutes the trailer stays where it is after someone on site has switched its mode. */
export const TRAILER_HOLD_MIN = 10;

type Phase = 'working' | 'stopping' | 'driving' | 'held';
type Mode = 'auto' | 'manual' | 'stop' | 'test';

function modeOf(v: Record<string, number | null>): Mode | null {
  if (v.mode_auto) return 'auto';
  if (v.mode_manual) return 'manual';
  if (v.mode_stop) return 'stop';
  if (v.mode_test) return 'test';
  return null;
}

const metres = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  Math.hypot((a.lat - b.lat) * 111_195, (a.lon - b.lon) * 111_195 * Math.cos((a.lat * Math.PI) / 180));

/**
 * The trailer's duty, stepped with the set's simulated time (`step(ms)` after the model has advanced). It begins
 * on the road (its engine at rest, in STOP) to the far site; there it works (AUTO, off the mains, on load), stops
 * (STOP until the engine stands), drives back to its yard, works there, and so on. Someone who switches its mode
 * on site takes it over: it parks where it is (a trailer on the road stops first) and stays until
 * TRAILER_HOLD_MIN minutes after the last such switch, then goes on to where it was heading.
 */
export class TrailerDuty {
  private phase: Phase = 'stopping';
  private phaseMs = 0;
  /** The end the trailer came from (or stands at): true its yard. */
  private atYard = true;
  /** The mode the duty last set; any other is someone else's. */
  private mine: Mode = 'stop';
  private started = false;

  constructor(private readonly model: Pick<GensetModel, 'setMode' | 'followPath' | 'moveTo' | 'values'>) {}

  get state(): { phase: Phase; atYard: boolean } {
    return { phase: this.phase, atYard: this.atYard };
  }

  private setMode(mode: Mode) {
    this.mine = mode;
    this.model.setMode(mode);
  }

  step(ms: number): void {
    if (!this.started) {
      this.started = true;
      this.setMode('stop');
    }
    this.phaseMs += ms;
    const v = this.model.values();
    const here =
      typeof v.latitude === 'number' && typeof v.longitude === 'number' ? { lat: v.latitude, lon: v.longitude } : null;
    const mode = modeOf(v);
    if (mode !== null && mode !== this.mine) {
      // taken over on site: parked where it is, until a while after the last switch
      this.mine = mode;
      if (here && this.phase === 'driving') this.model.moveTo(here);
      this.enter('held');
      return;
    }
    switch (this.phase) {
      case 'working':
        if (this.phaseMs >= TRAILER_WORK_MIN * 60_000) {
          this.setMode('stop');
          this.enter('stopping');
        }
        break;
      case 'held':
        if (this.phaseMs >= TRAILER_HOLD_MIN * 60_000) {
          this.setMode('stop');
          this.enter('stopping');
        }
        break;
      case 'stopping':
        if ((v.engine_rpm ?? 0) < 1 && (v.gen_kw ?? 0) <= 0 && here) {
          this.model.followPath(this.roadFrom(here), TRAILER_KMH, false);
          this.enter('driving');
        }
        break;
      case 'driving': {
        const end = this.atYard ? TRAILER_PATH.at(-1)! : TRAILER_PATH[0]!;
        if (here && metres(here, end) < 0.01) {
          this.model.moveTo(end);
          this.atYard = !this.atYard;
          this.setMode('auto');
          this.enter('working');
        }
        break;
      }
    }
  }

  /** The rest of the road from where the trailer stands to the end it is heading for. */
  private roadFrom(here: { lat: number; lon: number }) {
    const road = this.atYard ? TRAILER_PATH : [...TRAILER_PATH].reverse();
    let nearest = 0;
    for (let i = 1; i < road.length; i++) if (metres(here, road[i]!) < metres(here, road[nearest]!)) nearest = i;
    // past the nearest bend when it lies behind (or is where the trailer stands)
    const ahead =
      nearest < road.length - 1 && metres(here, road[nearest + 1]!) <= metres(road[nearest]!, road[nearest + 1]!)
        ? nearest + 1
        : nearest;
    const rest = road.slice(ahead);
    return metres(here, rest[0]!) < 0.01 ? rest : [here, ...rest];
  }

  private enter(phase: Phase) {
    this.phase = phase;
    this.phaseMs = 0;
  }
}
