/**
 * The load graph of the Processor card (SPEC §9): systemLoad samples (0 to 1) over time, y axis
 * 0 to 100 %, x labels HH:MM. Pure geometry; the component only draws it.
 */
import { formatHourMinute } from './timeline';

export interface LoadSample {
  time: Date;
  /** 0 to 1. */
  systemLoad: number;
}

export interface TimeDomain {
  from: Date;
  to: Date;
}

export interface Tick {
  value: number;
  label: string;
}

const MINUTE = 60_000;
/** A graph spans at least this much, so a few fresh samples do not fill the whole width. */
export const MIN_SPAN_MS = 15 * MINUTE;
const TICK_STEPS_MIN = [1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720];

/** Parses and sorts the API's samples; unreadable ones are dropped, loads clamped to 0..1. */
export function toLoadSamples(entries: { time: string; systemLoad: number }[]): LoadSample[] {
  return entries
    .map((e) => ({ time: new Date(e.time), systemLoad: Math.min(1, Math.max(0, e.systemLoad)) }))
    .filter((s) => !Number.isNaN(s.time.getTime()) && Number.isFinite(s.systemLoad))
    .sort((a, b) => a.time.getTime() - b.time.getTime());
}

/** From the first sample to now (or the last sample, if later), at least MIN_SPAN_MS wide. */
export function timeDomain(samples: LoadSample[], now: Date): TimeDomain {
  const last = samples.length ? Math.max(now.getTime(), samples[samples.length - 1]!.time.getTime()) : now.getTime();
  const first = samples.length ? samples[0]!.time.getTime() : last;
  return { from: new Date(Math.min(first, last - MIN_SPAN_MS)), to: new Date(last) };
}

/** X labels HH:MM on round local times, at most `max` of them. */
export function timeTicks({ from, to }: TimeDomain, max = 6): Tick[] {
  const span = to.getTime() - from.getTime();
  if (!(span > 0)) return [];
  const stepMin = TICK_STEPS_MIN.find((m) => span / (m * MINUTE) <= max) ?? 24 * 60;
  const step = stepMin * MINUTE;
  // Round up to a multiple of the step in local time (offset from local midnight).
  const midnight = new Date(from.getFullYear(), from.getMonth(), from.getDate()).getTime();
  let t = midnight + Math.ceil((from.getTime() - midnight) / step) * step;
  const ticks: Tick[] = [];
  for (; t <= to.getTime(); t += step) ticks.push({ value: t, label: formatHourMinute(new Date(t)) });
  return ticks;
}

/** Y axis: 0, 25, 50, 75, 100 %. */
export const LOAD_TICKS: Tick[] = [0, 25, 50, 75, 100].map((p) => ({ value: p / 100, label: `${p} %` }));

/**
 * Samples as lines of [x, y] points inside a width × height plot (y grows downwards), split where
 * samples are missing for longer than `gapFactor` times the usual interval (the device was away).
 */
export function loadLines(samples: LoadSample[], domain: TimeDomain, width: number, height: number, gapFactor = 3): [number, number][][] {
  const span = domain.to.getTime() - domain.from.getTime();
  if (!samples.length || !(span > 0)) return [];
  const usual = medianInterval(samples);
  const lines: [number, number][][] = [];
  let line: [number, number][] = [];
  samples.forEach((s, i) => {
    if (i > 0 && usual > 0 && s.time.getTime() - samples[i - 1]!.time.getTime() > gapFactor * usual) {
      lines.push(line);
      line = [];
    }
    const x = ((s.time.getTime() - domain.from.getTime()) / span) * width;
    line.push([round(x), round((1 - s.systemLoad) * height)]);
  });
  lines.push(line);
  return lines;
}

function medianInterval(samples: LoadSample[]): number {
  const gaps = samples.slice(1).map((s, i) => s.time.getTime() - samples[i]!.time.getTime());
  if (!gaps.length) return 0;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]!;
}

const round = (n: number) => Math.round(n * 10) / 10;
