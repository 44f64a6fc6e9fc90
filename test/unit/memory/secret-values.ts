// Credential-shaped test values, built at run time (no literal key sits in the repository for a scanner to
// flag), and the two tables every write path is held to: what must be refused and what must be stored.

/** A deterministic string of `n` characters from `alphabet` (a fixed LCG: the same value every run). */
export function fake(
  n: number,
  seed = 7,
  alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789',
): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

/** ASCII letters, digits and punctuation in their full-width forms (U+FF01..U+FF5E). */
export const fullWidth = (s: string): string =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x21 + 0xff01));

/** `s` with `mark` after every `every` characters. */
export const splitBy = (s: string, mark: string, every = 6): string =>
  s.replace(new RegExp(`(.{${every}})`, 'gu'), `$1${mark}`);

const github = 'ghp_' + fake(36, 1);
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** [label, value, the detector the refusal names]. Each value sits alone on its line. */
export const mustRefuse: [string, string, string][] = [
  ['GitLab personal token', 'glpat-' + fake(20, 2), 'a GitLab token'],
  ['npm token', 'npm_' + fake(36, 3), 'an npm token'],
  ['Hugging Face token', 'hf_' + fake(34, 4, letters), 'a Hugging Face token'],
  ['Google OAuth access token', 'ya29.a0AfH6SM' + fake(60, 5), 'a Google OAuth token'],
  ['SendGrid key', 'SG.' + fake(22, 6) + '.' + fake(43, 7), 'a SendGrid API key'],
  ['Stripe test secret key', 'sk_test_' + fake(24, 8), 'a Stripe secret key'],
  ['Stripe test restricted key', 'rk_test_' + fake(24, 9), 'a Stripe secret key'],
  ['Stripe live key', 'sk_live_' + fake(24, 10), 'a Stripe secret key'],
  ['Bearer header', 'Authorization: Bearer ' + fake(40, 11), 'a bearer token'],
  ['lower-case bearer', 'curl -H "authorization: bearer ' + fake(32, 12) + '"', 'a bearer token'],
  ['password in a postgres URL', 'postgres://user:pass@host/db', 'a password inside a URL'],
  ['password in an https URL', 'https://admin:' + fake(12, 13) + '@example.com/', 'a password inside a URL'],
  ['password in a redis URL, no user', 'redis://:' + fake(10, 14) + '@cache:6379', 'a password inside a URL'],
  ['GitHub token split by zero-width spaces', splitBy(github, '\u200b'), 'a GitHub token'],
  ['GitHub token split by zero-width joiners', splitBy(github, '\u200d', 3), 'a GitHub token'],
  ['GitHub token in full-width letters', fullWidth(github), 'a GitHub token'],
  ['AWS key split by a soft hyphen', 'AKIA\u00adIOSFODNN7EXAMPLE', 'an AWS access key'],
  [
    'Stripe key split by bidi marks',
    splitBy('sk_live_' + fake(24, 15), '\u200e\u202e'),
    'a Stripe secret key',
  ],
  ['npm token with variation selectors', splitBy('npm_' + fake(36, 16), '\ufe0f', 5), 'an npm token'],
  [
    'GitLab token with word joiners, full-width',
    fullWidth(splitBy('glpat-' + fake(20, 17), '\u2060')),
    'a GitLab token',
  ],
  ['Anthropic key behind a BOM', 'sk-ant-api03-\ufeff' + fake(40, 18), 'an Anthropic API key'],
  ['a tag character inside a key', splitBy(github, '\u{E0041}', 10), 'a GitHub token'],
  ['password assignment', 'DB_PASSWORD=' + fake(16, 19) + '!9', 'a password or secret assignment'],
  ['password in bold Markdown', '- **Password**: ' + fake(14, 32) + '#9', 'a password or secret assignment'],
  [
    'password in a sentence',
    'the wifi password is ' + fake(14, 33) + '!7',
    'a password or secret assignment',
  ],
];

/** Notes that only talk about secrets: stored as written. */
export const mustAccept: string[] = [
  'I reset my password on Mondays.',
  'The API key lives in the vault.',
  'We use a token bucket algorithm for rate limits.',
  'Bearer tokens go in the Authorization header.',
  'Authorization: Bearer <token>',
  'Send the header as Bearer $ACCESS_TOKEN from the environment.',
  'My password is stored in the team vault; ask Sam.',
  'password: hunter2',
  'pwd = /home/alice/projects/mnemo',
  'The secret: always preheat the oven.',
  'The password is stored in the vault, and the secret is patience.',
  'My password is at least twelve characters long.',
  '**Password**: ask Sam (it changes monthly)',
  'secret santa: Alex gets Sam',
  'postgres://localhost:5432/app is the dev database.',
  'postgres://app:${DB_PASSWORD}@db.internal/app (the password comes from the environment)',
  'postgres://app:****@db.internal/app',
  'Clone https://sam@example.com/repo.git or ssh git@github.com:org/repo.git',
  'Mail sam@example.com at 10:30 about http://example.com:8080/status',
  'Stripe keys start with sk_test_ or sk_live_; never paste them here.',
  'Hugging Face: call hf_hub_download to fetch a model.',
  'npm_config_registry points at the company mirror.',
  'GitLab tokens look like glpat-… (keep them in 1Password).',
  'ya29. tokens expire after an hour.',
  'SendGrid keys start with SG. and are shown once.',
  'ｐａｓｓｗｏｒｄ ｒｅｓｅｔ ｏｎ Ｍｏｎｄａｙｓ',
  '- [ ] rotate the API key (vault entry "prod-db")',
  'api_key = os.environ["OPENAI_API_KEY"]',
  'The API key lives in ANTHROPIC_API_KEY.',
  'Use sk-ant-... style keys from the console (never paste them here).',
  'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it',
  'id 123e4567-e89b-12d3-a456-426614174000',
  'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'Café ﬁnances — 日本語のメモ — emoji ❤️ 👍🏽',
];
