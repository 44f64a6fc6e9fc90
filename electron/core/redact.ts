// Redaction for diagnostics. The log file must never hold an API key or the user's memory: keys are
// masked by shape (sk-ant-..., Bearer tokens, x-api-key headers) and by value (the configured key), and
// fields that carry memory or message contents are replaced by their size and a short hash, which is
// enough to correlate events without knowing what was written.
import { createHash } from 'node:crypto';

const KEY_PATTERNS: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]+/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  /(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
];

/** Field names whose string values are user or model content (memory files, messages, tool inputs). */
const CONTENT_FIELDS = new Set([
  'content',
  'text',
  'file_text',
  'old_str',
  'new_str',
  'insert_text',
  'input',
  'result',
  'before',
  'after',
  'markdown',
  'summary',
  'snippet',
  'query',
  'body',
  'message_text',
  'title',
  'prompt',
  'system',
  'messages',
  'delta',
  'partial_json',
  'apikey',
  'api_key',
]);

const MAX_STRING = 2_000;

/** Masks API keys in free text; `secrets` are exact values to mask too (e.g. the configured key). */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would mask ordinary words; real keys are long.
    if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  for (const pattern of KEY_PATTERNS) {
    out = out.replace(pattern, (_m, prefix?: string) =>
      typeof prefix === 'string' ? `${prefix}[redacted]` : '[redacted]',
    );
  }
  return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING)}… (${out.length} chars)` : out;
}

/** A content string as it may appear in a log: its size and a short hash, never the text. */
export function describeContent(value: string): string {
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 12);
  return `[${Buffer.byteLength(value)} bytes sha256:${hash}]`;
}

/** Redacts structured log fields: content fields become size+hash, other strings are key-masked. */
export function redactFields(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 6) return '[nested]';
  if (typeof value === 'string') return redactText(value, secrets);
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactText(value.message, secrets),
      ...(value.stack ? { stack: redactText(value.stack, secrets) } : {}),
    };
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactFields(v, secrets, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (CONTENT_FIELDS.has(k.toLowerCase())) {
        out[k] = typeof v === 'string' ? describeContent(v) : describeContent(safeJson(v));
      } else {
        out[k] = redactFields(v, secrets, depth + 1);
      }
    }
    return out;
  }
  return value;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
