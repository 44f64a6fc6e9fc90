// Timing for the benchmarks: one call's wall-clock ms (and its CPU ms, since this machine is shared and wall
// time carries waiting), and the quantiles the tables print.

/** Wall-clock ms of one call; its CPU ms go to `cpu` when given. */
export async function ms(fn: () => Promise<unknown> | unknown, cpu?: number[]): Promise<number> {
  const startCpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(startCpu);
  cpu?.push((used.user + used.system) / 1000);
  return wall;
}

/** The value at quantile `q` (0…1) of `values`, 0 for none. */
export const quantile = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;

export const median = (values: number[]): number => quantile(values, 0.5);

/**
 * The mean of the middle half of `values` (the lowest and highest quarter left out), 0 for none. For times
 * a browser paints: they come in whole frames (one open 25 ms, the next 40), so their median jumps from one
 * frame count to the other with the share of each, while this moves with it; and, unlike the mean, one
 * sample that waited for something else does not move it.
 */
export function midMean(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length / 4);
  const middle = sorted.slice(cut, sorted.length - cut);
  return middle.length === 0 ? 0 : middle.reduce((sum, v) => sum + v, 0) / middle.length;
}
