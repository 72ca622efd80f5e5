import type { MetricsSample } from '@fleetlink/contract';
import { Box, Text } from '@mantine/core';
import { LOAD_TICKS, loadLines, timeDomain, timeTicks, toLoadSamples } from './load-graph';

const WIDTH = 560;
const HEIGHT = 180;
const M = { top: 8, right: 20, bottom: 22, left: 44 };
const PLOT_W = WIDTH - M.left - M.right;
const PLOT_H = HEIGHT - M.top - M.bottom;

/**
 * The Processor card's load graph (SPEC §9): systemLoad over the last 24 hours, y axis 0–100 %,
 * x labels HH:MM in local time. A small SVG; lines break where the device sent nothing.
 */
export function LoadGraph({ samples: raw, now = new Date() }: { samples: MetricsSample[]; now?: Date }) {
  const samples = toLoadSamples(raw);
  if (!samples.length) {
    return (
      <Text size="sm" c="dimmed" mt="sm" data-testid="load-graph-empty">
        No load samples yet.
      </Text>
    );
  }
  const domain = timeDomain(samples, now);
  const span = domain.to.getTime() - domain.from.getTime();
  const xTicks = timeTicks(domain);
  const lines = loadLines(samples, domain, PLOT_W, PLOT_H);
  const latest = samples[samples.length - 1]!;
  return (
    <Box mt="sm">
      <Text size="sm" c="dimmed">
        System load
      </Text>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={`System load, ${samples.length} samples, latest ${Math.round(latest.systemLoad * 100)} %`}
        data-testid="load-graph"
        style={{ display: 'block', fontSize: 11, fontFamily: 'var(--mantine-font-family)' }}
      >
        <g transform={`translate(${M.left},${M.top})`}>
          {LOAD_TICKS.map((t) => {
            const y = (1 - t.value) * PLOT_H;
            return (
              <g key={t.label} data-testid="load-graph-y-tick">
                <line x1={0} x2={PLOT_W} y1={y} y2={y} stroke="var(--mantine-color-default-border)" />
                <text x={-6} y={y} dy="0.32em" textAnchor="end" fill="var(--mantine-color-dimmed)">
                  {t.label}
                </text>
              </g>
            );
          })}
          {xTicks.map((t) => {
            const x = ((t.value - domain.from.getTime()) / span) * PLOT_W;
            return (
              <g key={t.value} data-testid="load-graph-x-tick">
                <line x1={x} x2={x} y1={PLOT_H} y2={PLOT_H + 4} stroke="var(--mantine-color-dimmed)" />
                <text x={x} y={PLOT_H + 16} textAnchor="middle" fill="var(--mantine-color-dimmed)">
                  {t.label}
                </text>
              </g>
            );
          })}
          {lines.map((line, i) =>
            line.length === 1 ? (
              <circle key={i} cx={line[0]![0]} cy={line[0]![1]} r={2} fill="var(--mantine-color-blue-filled)" />
            ) : (
              <polyline
                key={i}
                points={line.map(([x, y]) => `${x},${y}`).join(' ')}
                fill="none"
                stroke="var(--mantine-color-blue-filled)"
                strokeWidth={1.5}
                strokeLinejoin="round"
              />
            ),
          )}
        </g>
      </svg>
    </Box>
  );
}
