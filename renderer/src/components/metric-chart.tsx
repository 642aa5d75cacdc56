import { Box, Group, Paper, Stack, Text, Title, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface MetricPoint {
  at: string;
  value: number;
}

const HEIGHT = 180;
/** Counts are whole numbers: the y axis steps by whole numbers too. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];

const counted = (n: number, [one, many]: readonly [string, string]) => `${n} ${n === 1 ? one : many}`;
const minuteLabel = (at: string) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** One per-minute series as a bar chart (uPlot, on a canvas), its total, and the same facts in words. */
export function MetricChart({
  title,
  unit,
  points,
  windowLabel,
  color,
}: {
  title: string;
  /** What one count is, singular and plural: ["request", "requests"]. */
  unit: readonly [string, string];
  points: MetricPoint[];
  /** "the last hour" */
  windowLabel: string;
  /** A Mantine colour name. */
  color: string;
}) {
  const headingId = useId();
  const [hovered, setHovered] = useState<number | null>(null);
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const current = points.at(-1)?.value ?? 0;
  const peak = points.reduce<MetricPoint | null>((best, p) => (p.value > (best?.value ?? 0) ? p : best), null);
  const summary =
    `${title} per minute over ${windowLabel}: ${total} in total, ${current} in the current minute` +
    (peak ? `, at most ${peak.value} in one minute (${minuteLabel(peak.at)}).` : '.');
  const shown = hovered === null ? null : points[hovered];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" align="baseline">
          <Title order={3} size="h5" id={headingId}>
            {title}
          </Title>
          <Group gap="md">
            <Text size="sm" c="dimmed">
              This minute: <b>{current}</b>
            </Text>
            <Text size="sm" data-testid="metric-total">
              Total: <b>{total}</b>
            </Text>
          </Group>
        </Group>
        <BarChart points={points} label={title} color={color} summary={summary} onHover={setHovered} />
        <Text size="xs" c="dimmed" aria-hidden>
          {shown
            ? `${minuteLabel(shown.at)}: ${counted(shown.value, unit)}`
            : `${counted(total, unit)} over ${windowLabel}`}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The canvas: made again when its width or the colour scheme changes, given new data in place otherwise. */
function BarChart({
  points,
  label,
  color,
  summary,
  onHover,
}: {
  points: MetricPoint[];
  label: string;
  color: string;
  summary: string;
  onHover(index: number | null): void;
}) {
  const { ref: measured, width } = useElementSize();
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const theme = useMantineTheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const data = useMemo<uPlot.AlignedData>(
    () => [points.map((p) => Date.parse(p.at) / 1000), points.map((p) => p.value)],
    [points],
  );
  const latest = useRef({ data, onHover, width });
  latest.current = { data, onHover, width };
  const sized = width > 0;

  // Made again only when the colours change: a resize (the window, a scroll bar coming or going) resizes it in place.
  useEffect(() => {
    if (!holder.current || !sized) return;
    const text = dark ? theme.colors.dark[0] : theme.colors.gray[7];
    const grid = dark ? theme.colors.dark[4] : theme.colors.gray[2];
    const bar = theme.colors[color][dark ? 4 : 6];
    const axis: uPlot.Axis = {
      stroke: text,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      font: '11px system-ui, sans-serif',
    };
    const made = new uPlot(
      {
        width: Math.floor(latest.current.width),
        height: HEIGHT,
        legend: { show: false },
        cursor: { y: false, drag: { x: false, y: false } },
        scales: {
          // Half a minute either side: the first and the current minute's bars are drawn whole.
          x: { time: true, range: (_u, min, max) => [min - 30, max + 30] },
          y: { range: (_u, _min, max) => [0, Math.max(max, 1)] },
        },
        axes: [axis, { ...axis, size: 44, incrs: COUNT_STEPS }],
        series: [
          {},
          {
            label,
            stroke: bar,
            fill: `${bar}cc`,
            width: 0,
            paths: uPlot.paths.bars?.({ size: [0.8, 24] }),
            points: { show: false },
          },
        ],
        hooks: { setCursor: [(u) => latest.current.onHover(u.cursor.idx ?? null)] },
      },
      latest.current.data,
      holder.current,
    );
    chart.current = made;
    return () => {
      made.destroy();
      chart.current = null;
    };
  }, [sized, dark, color, label, theme]);

  useEffect(() => {
    if (width > 0) chart.current?.setSize({ width: Math.floor(width), height: HEIGHT });
  }, [width]);

  useEffect(() => {
    chart.current?.setData(data);
  }, [data]);

  return (
    <Box ref={measured} w="100%" mih={HEIGHT}>
      <div ref={holder} role="img" aria-label={summary} />
    </Box>
  );
}
