// Number formatting for labels. Here (not in the renderer) because every face derives the same labels.

/** 420 → "420", 8200 → "8.2k", 41000 → "41k", 1_250_000 → "1.3M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 1_000_000) return trimZero((n / 1000).toFixed(abs < 100_000 ? 1 : 0)) + 'k';
  return trimZero((n / 1_000_000).toFixed(1)) + 'M';
}

export function trimZero(s: string): string {
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}
