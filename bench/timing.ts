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
