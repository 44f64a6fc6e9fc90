// Credential detectors. A memory file is sent back to the model and may be exported, so content that looks
// like a secret is refused. The refusal names the detector and the line, never the matched value.

interface Detector {
  name: string;
  pattern: RegExp;
  /** Optional extra test on the match (e.g. entropy), to keep false positives down. */
  accept?: (match: RegExpExecArray) => boolean;
}

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const detectors: Detector[] = [
  { name: 'a private key block', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { name: 'an Anthropic API key', pattern: /\bsk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,}/ },
  { name: 'an OpenAI API key', pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/ },
  { name: 'an OpenAI API key', pattern: /\bsk-[A-Za-z0-9]{20,}T3BlbkFJ[A-Za-z0-9]{20,}/ },
  { name: 'an AWS access key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16}\b/ },
  {
    name: 'an AWS secret access key',
    pattern: /aws_?secret_?access_?key\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b/i,
  },
  { name: 'a GitHub token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b/ },
  { name: 'a GitHub token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}\b/ },
  { name: 'a Slack token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/ },
  {
    name: 'a Slack webhook URL',
    pattern: /hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/,
  },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { name: 'a Stripe secret key', pattern: /\b(?:sk|rk)_live_[0-9a-zA-Z]{20,}\b/ },
  { name: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  {
    name: 'a password or secret assignment',
    pattern:
      /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)\s*[:=]\s*["']?([^\s"'`]{12,})/i,
    accept: (m) => entropy(m[1] ?? '') >= 3.5,
  },
];

export interface SecretFinding {
  /** e.g. "an AWS access key" */
  detector: string;
  /** 1-based line of the first match. */
  line: number;
}

/** The first credential-looking match in `text`, or null. Never returns the matched value. */
export function detectSecret(text: string): SecretFinding | null {
  let best: SecretFinding | null = null;
  let bestIndex = Infinity;
  for (const d of detectors) {
    const re = new RegExp(
      d.pattern.source,
      d.pattern.flags.includes('g') ? d.pattern.flags : d.pattern.flags + 'g',
    );
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (!d.accept || d.accept(m)) {
        if (m.index < bestIndex) {
          bestIndex = m.index;
          best = { detector: d.name, line: 0 };
        }
        break;
      }
    }
  }
  if (!best) return null;
  let line = 1;
  for (let i = 0; i < bestIndex; i++) if (text.charCodeAt(i) === 10) line++;
  return { ...best, line };
}
