// The credential formats secrets.ts looks for. Prefixes and lengths follow the rules gitleaks and secretlint
// keep for each vendor (gitleaks' config/gitleaks.toml, secretlint's rule packages); we carry our own table
// rather than depend on secretlint because its current rules need Node 22 and its engine is asynchronous,
// while these checks run synchronously inside the write lock and the import screen. Two kinds the issue
// names are in neither set (Google OAuth `ya29.` tokens, `Bearer` headers) and all of them need the same
// normalisation first (secrets.ts).
//
// Every pattern runs on one text of up to the file cap, so each must be linear: a greedy run is never
// followed by something it could give characters back to, except where the run is bounded.

export interface Detector {
  /** What the refusal says the text looks like, e.g. "an AWS access key". Never the matched value. */
  name: string;
  pattern: RegExp;
  /** An extra test on the match (entropy, placeholders), to keep false positives down. */
  accept?: (match: RegExpExecArray) => boolean;
}

export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Values that stand for a secret without being one: `${DB_PASS}`, `<password>`, `****`, `{{token}}`. */
const PLACEHOLDER = /^(?:\*+|x+|X+|\.+|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\{[^}]*\}\}|%s|\[[^\]]*\])$/;

const looksRandom = (value: string, minEntropy: number): boolean =>
  /[0-9]/.test(value) && /[A-Za-z]/.test(value) && entropy(value) >= minEntropy;

/** `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}` in a run without other characters. */
function hasJwt(run: string): boolean {
  const parts = run.split('.');
  for (let i = 0; i + 2 < parts.length; i++) {
    const [header, payload, signature] = [parts[i]!, parts[i + 1]!, parts[i + 2]!];
    if (!payload.startsWith('eyJ') || payload.length < 11 || signature.length < 8) continue;
    for (let j = header.indexOf('eyJ'); j !== -1; j = header.indexOf('eyJ', j + 1)) {
      if (header.length - j < 11) break;
      if (j === 0 || header[j - 1] === '-') return true;
    }
  }
  return false;
}

export const detectors: Detector[] = [
  { name: 'a private key block', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { name: 'an age secret key', pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}/ },
  { name: 'an Anthropic API key', pattern: /\bsk-ant-[a-z0-9]{1,12}-[A-Za-z0-9_-]{20,}/ },
  { name: 'an OpenAI API key', pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/ },
  { name: 'an OpenAI API key', pattern: /\bsk-[A-Za-z0-9]{20,80}T3BlbkFJ[A-Za-z0-9]{20,}/ },
  { name: 'an AWS access key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16}\b/ },
  {
    name: 'an AWS secret access key',
    pattern: /aws_?secret_?access_?key[ \t]*[:=][ \t]*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/i,
  },
  { name: 'a GitHub token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}/ },
  { name: 'a GitHub token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/ },
  { name: 'a GitLab token', pattern: /\bgl(?:pat|dt|ptt|rt|soat|cbt|oas|ft|imt|agent)-[0-9A-Za-z_.-]{20,}/ },
  { name: 'a GitLab token', pattern: /\bGR1348941[0-9A-Za-z_-]{20,}/ },
  { name: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/ },
  { name: 'a PyPI token', pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/ },
  { name: 'a Docker Hub token', pattern: /\bdckr_pat_[A-Za-z0-9_-]{20,}/ },
  { name: 'a Hugging Face token', pattern: /\b(?:hf|api_org)_[A-Za-z0-9]{30,}/ },
  { name: 'a Slack token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/ },
  {
    name: 'a Slack webhook URL',
    pattern: /hooks\.slack\.com\/services\/T[A-Za-z0-9_]{1,20}\/B[A-Za-z0-9_]{1,20}\/[A-Za-z0-9_]+/,
  },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/ },
  { name: 'a Google OAuth token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/ },
  { name: 'a Google OAuth client secret', pattern: /\bGOCSPX-[0-9A-Za-z_-]{28}/ },
  { name: 'a SendGrid API key', pattern: /\bSG\.[0-9A-Za-z_-]{16,32}\.[0-9A-Za-z_-]{16,64}/ },
  { name: 'a Stripe secret key', pattern: /\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{20,}/ },
  { name: 'a Stripe webhook secret', pattern: /\bwhsec_[0-9a-zA-Z+/]{24,}/ },
  { name: 'a Shopify token', pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/ },
  { name: 'a Linear API key', pattern: /\blin_api_[A-Za-z0-9]{40}/ },
  { name: 'a Notion token', pattern: /\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})/ },
  { name: 'a Groq API key', pattern: /\bgsk_[A-Za-z0-9]{48,}/ },
  { name: 'a Tailscale key', pattern: /\btskey-[a-z]{3,8}-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}/ },
  { name: 'a HashiCorp Vault token', pattern: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/ },
  { name: 'a Databricks token', pattern: /\bdapi[a-f0-9]{32}(?![a-f0-9])/ },
  { name: 'a DigitalOcean token', pattern: /\bdo[opr]_v1_[a-f0-9]{64}/ },
  { name: 'a Grafana token', pattern: /\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,})/ },
  { name: 'a Telegram bot token', pattern: /\b[0-9]{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])/ },
  { name: 'an Azure storage key', pattern: /\bAccountKey=[A-Za-z0-9+/]{80,}/ },
  { name: 'a 1Password service account token', pattern: /\bops_eyJ[A-Za-z0-9+/=]{100,}/ },
  {
    name: 'a JSON Web Token',
    // header.payload.signature, found within runs of base64url and dots: a regex that looks for "eyJ...\."
    // directly backtracks quadratically over "eyJ-eyJ-eyJ-...". A run is tried from its first character
    // only (the lookbehind): from every character, a text of 26-character words cost time quadratic in
    // each word (24 ms for 100 KB of them, against 0.8 ms), and the matches are the same.
    pattern: /(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{27,}/,
    accept: (m) => hasJwt(m[0]),
  },
  {
    name: 'a bearer token',
    pattern: /\b(?:Bearer|bearer|BEARER)[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/,
    accept: (m) => looksRandom(m[1] ?? '', 3),
  },
  {
    name: 'a basic-auth header',
    pattern: /\bauthorization[ \t]*:[ \t]*basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})/i,
  },
  {
    name: 'a password inside a URL',
    // scheme://user:password@host. Bounded scheme and user, so a long run without "@" stays linear.
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:/?#@"'<>]{0,256}:([^\s/?#@"'<>]{1,512})@[^\s/?#@"'<>]/,
    accept: (m) => !PLACEHOLDER.test(m[1] ?? ''),
  },
  {
    name: 'a password or secret assignment',
    pattern:
      /(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key)(?:[_-]?(?:key|token|value))?[*_"'`]{0,4}[ \t]*(?:[:=]|[ \t]is[ \t])[ \t]*["'`]?([^\s"'`]{12,})/i,
    accept: (m) => {
      const value = m[1] ?? '';
      return !/^[$<{%/~]/.test(value) && entropy(value) >= 3.5;
    },
  },
];
