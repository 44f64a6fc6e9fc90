// The geometry of the context meter: the scale (the model's window, or a little past the compaction
// trigger while the window is unknown), each part's share of it and where the triggers sit. Pure.
import type { ContextUsage } from '../../../shared/channels/context';

export const PARTS = [
  { key: 'system', label: 'System prompt & tools' },
  { key: 'memory', label: 'Memory' },
  { key: 'messages', label: 'Messages' },
  { key: 'toolResults', label: 'Tool results' },
] as const;

export type PartKey = (typeof PARTS)[number]['key'];

export interface MeterModel {
  scale: number;
  scaleIsWindow: boolean;
  segments: { key: PartKey; label: string; tokens: number; percent: number }[];
  /** Percent of the scale used by all parts together (at most 100). */
  usedPercent: number;
  markers: { key: 'clear' | 'compact'; label: string; tokens: number; percent: number }[];
}

function pct(value: number, scale: number): number {
  if (scale <= 0) return 0;
  return Math.max(0, Math.min(100, (value / scale) * 100));
}

export function meterModel(usage: ContextUsage): MeterModel {
  const known = usage.contextWindow !== null && usage.contextWindow > 0;
  const scale = known ? usage.contextWindow! : Math.max(usage.compactTrigger * 1.25, usage.total, 1);
  const segments = PARTS.map((part) => ({
    key: part.key,
    label: part.label,
    tokens: usage.parts[part.key],
    percent: pct(usage.parts[part.key], scale),
  }));
  // Rounding must never make the bar overflow its track.
  let room = 100;
  for (const segment of segments) {
    segment.percent = Math.min(segment.percent, room);
    room -= segment.percent;
  }
  const markers: MeterModel['markers'] = [];
  if (usage.strategy !== 'off') {
    if (usage.clearTrigger <= scale)
      markers.push({
        key: 'clear',
        label: 'Clearing',
        tokens: usage.clearTrigger,
        percent: pct(usage.clearTrigger, scale),
      });
    if (usage.compactTrigger <= scale)
      markers.push({
        key: 'compact',
        label: 'Compaction',
        tokens: usage.compactTrigger,
        percent: pct(usage.compactTrigger, scale),
      });
  }
  return { scale, scaleIsWindow: known, segments, usedPercent: 100 - room, markers };
}
