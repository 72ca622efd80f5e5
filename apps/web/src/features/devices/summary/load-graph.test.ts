import { describe, expect, it } from 'vitest';
import { LOAD_TICKS, MIN_SPAN_MS, loadLines, timeDomain, timeTicks, toLoadSamples } from './load-graph';

const at = (h: number, m = 0, s = 0) => new Date(2026, 10, 24, h, m, s);

describe('load samples', () => {
  it('are parsed, sorted and clamped to 0..1', () => {
    const samples = toLoadSamples([
      { time: at(10, 2).toISOString(), systemLoad: 1.4 },
      { time: at(10, 1).toISOString(), systemLoad: -0.1 },
      { time: 'nonsense', systemLoad: 0.5 },
    ]);
    expect(samples).toEqual([
      { time: at(10, 1), systemLoad: 0 },
      { time: at(10, 2), systemLoad: 1 },
    ]);
  });
});

describe('time domain', () => {
  it('runs from the first sample to now', () => {
    const samples = toLoadSamples([{ time: at(8).toISOString(), systemLoad: 0.1 }]);
    expect(timeDomain(samples, at(12))).toEqual({ from: at(8), to: at(12) });
  });

  it('spans at least 15 minutes, also without samples', () => {
    const samples = toLoadSamples([{ time: at(11, 59).toISOString(), systemLoad: 0.1 }]);
    expect(timeDomain(samples, at(12))).toEqual({ from: new Date(at(12).getTime() - MIN_SPAN_MS), to: at(12) });
    expect(timeDomain([], at(12))).toEqual({ from: at(11, 45), to: at(12) });
  });
});

describe('x ticks', () => {
  it('are HH:MM labels on round local times, at most 6', () => {
    expect(timeTicks({ from: at(11, 45), to: at(12) }).map((t) => t.label)).toEqual(['11:45', '11:50', '11:55', '12:00']);
    expect(timeTicks({ from: at(10, 7), to: at(12, 1) }).map((t) => t.label)).toEqual(['10:30', '11:00', '11:30', '12:00']);
    const day = timeTicks({ from: new Date(2026, 10, 23, 12, 13), to: at(12, 13) });
    expect(day.map((t) => t.label)).toEqual(['16:00', '20:00', '00:00', '04:00', '08:00', '12:00']);
    expect(day.every((t) => /^\d\d:\d\d$/.test(t.label))).toBe(true);
  });

  it('are none for an empty span', () => {
    expect(timeTicks({ from: at(12), to: at(12) })).toEqual([]);
  });
});

describe('y ticks', () => {
  it('run from 0 to 100 percent', () => {
    expect(LOAD_TICKS.map((t) => t.label)).toEqual(['0 %', '25 %', '50 %', '75 %', '100 %']);
    expect(LOAD_TICKS.map((t) => t.value)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
});

describe('load lines', () => {
  const domain = { from: at(10), to: at(11) };

  it('maps time to x and load to y, 0 % at the bottom', () => {
    const samples = toLoadSamples([
      { time: at(10).toISOString(), systemLoad: 0 },
      { time: at(10, 30).toISOString(), systemLoad: 0.5 },
      { time: at(11).toISOString(), systemLoad: 1 },
    ]);
    expect(loadLines(samples, domain, 600, 100)).toEqual([
      [
        [0, 100],
        [300, 50],
        [600, 0],
      ],
    ]);
  });

  it('breaks the line where samples are missing', () => {
    const minutes = [0, 1, 2, 3, 30, 31, 32];
    const samples = toLoadSamples(minutes.map((m) => ({ time: at(10, m).toISOString(), systemLoad: 0.2 })));
    const lines = loadLines(samples, domain, 600, 100);
    expect(lines.map((l) => l.length)).toEqual([4, 3]);
  });

  it('draws nothing without samples', () => {
    expect(loadLines([], domain, 600, 100)).toEqual([]);
  });
});
