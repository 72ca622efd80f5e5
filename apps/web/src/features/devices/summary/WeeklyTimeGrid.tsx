import type { TimelineEntry } from '@fleetlink/contract';
import { Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import { dayLabel, dayRows, formatHourMinute, HOURS_PER_DAY, timelineBars, toPeriods, type DayBar, type DayRow } from './timeline';

const LABEL_WIDTH = 86;
const ROW_HEIGHT = 14;
const HOUR_LABELS = [0, 3, 6, 9, 12, 15, 18, 21];

/** 24 hour columns as faint lines behind the bars. */
const hourLines = `repeating-linear-gradient(to right, var(--mantine-color-default-border) 0 1px, transparent 1px calc(100% / ${HOURS_PER_DAY}))`;

const barText = (b: DayBar) => `${formatHourMinute(b.start)}–${b.ongoing ? 'now' : formatHourMinute(b.end)}`;

function DayTrack({ row, bars }: { row: DayRow; bars: DayBar[] }) {
  const label = dayLabel(row.start);
  const summary = bars.length ? `online ${bars.map(barText).join(', ')}` : 'offline';
  return (
    <Group gap={6} wrap="nowrap" data-testid="timeline-row" data-weekend={row.weekend} aria-label={`${label}: ${summary}`}>
      <Text size="xs" c={row.weekend ? undefined : 'dimmed'} fw={row.weekend ? 500 : undefined} w={LABEL_WIDTH} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Box
        pos="relative"
        h={ROW_HEIGHT}
        style={{
          flex: 1,
          borderRight: '1px solid var(--mantine-color-default-border)',
          backgroundColor: row.weekend ? 'var(--mantine-color-gray-light)' : undefined,
          backgroundImage: hourLines,
        }}
      >
        {bars.map((b) => (
          <Tooltip key={b.start.getTime()} label={`Online ${barText(b)}`} withArrow>
            <Box
              data-testid="timeline-bar"
              pos="absolute"
              top={2}
              h={ROW_HEIGHT - 4}
              style={{
                left: `${b.from * 100}%`,
                width: `max(2px, ${(b.to - b.from) * 100}%)`,
                borderRadius: 2,
                backgroundColor: 'var(--mantine-color-teal-filled)',
              }}
            />
          </Tooltip>
        ))}
      </Box>
    </Group>
  );
}

/**
 * The Network card's weekly time grid (SPEC §9): the last 8 days as rows (oldest first), 24 hour
 * columns, weekends shaded, online periods as bars split at midnight. Local time.
 */
export function WeeklyTimeGrid({ entries, now = new Date() }: { entries: TimelineEntry[]; now?: Date }) {
  const rows = dayRows(now);
  const bars = timelineBars(toPeriods(entries), rows, now);
  return (
    <Stack gap={3} mt="sm" data-testid="weekly-time-grid" aria-label="Online periods of the last 8 days">
      <Text size="sm" c="dimmed">
        Online, last 8 days
      </Text>
      <Group gap={6} wrap="nowrap" aria-hidden>
        <Box w={LABEL_WIDTH} style={{ flexShrink: 0 }} />
        <Box pos="relative" h={14} style={{ flex: 1 }}>
          {HOUR_LABELS.map((h) => (
            <Text key={h} size="10px" c="dimmed" pos="absolute" style={{ left: `${(h / HOURS_PER_DAY) * 100}%`, lineHeight: '14px' }}>
              {String(h).padStart(2, '0')}
            </Text>
          ))}
        </Box>
      </Group>
      {rows.map((row, i) => (
        <DayTrack key={row.start.getTime()} row={row} bars={bars[i]!} />
      ))}
    </Stack>
  );
}
