import { describe, expect, it } from 'vitest';
import { detectSecret } from '../../../memory/index.js';

describe('secret detectors', () => {
  it.each([
    'My password is stored in the team vault; ask Sam.',
    'password: hunter2',
    'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it',
    'id 123e4567-e89b-12d3-a456-426614174000',
    'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'Use sk-ant-... style keys from the console (never paste them here).',
    'The API key lives in ANTHROPIC_API_KEY.',
  ])('lets ordinary notes through: %s', (text) => {
    expect(detectSecret(text)).toBeNull();
  });

  it('names the detector and the line, and returns nothing of the value', () => {
    const value = 'ghp_' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9Cb8A';
    const finding = detectSecret(`notes\n\nrepo token ${value}\n`);
    expect(finding).toEqual({ detector: 'a GitHub token', line: 3 });
    expect(JSON.stringify(finding)).not.toContain(value.slice(4, 12));
  });
});
