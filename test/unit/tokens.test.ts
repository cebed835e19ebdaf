import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { datasetPatternMatches, TokenFile, TokenVerifier } from '../../src/auth/tokens.ts';

describe('tokens', () => {
  const file = () => new TokenFile(join(mkdtempSync(join(tmpdir(), 'tokens-')), 'tokens.json'));

  test('a created token verifies; the file holds only its hash', () => {
    const tokens = file();
    const secret = tokens.create('analyst', ['public-*']);
    assert.ok(!readFileSync(tokens.path, 'utf8').includes(secret));
    assert.equal(new TokenVerifier(tokens).verify(secret)?.name, 'analyst');
    assert.equal(new TokenVerifier(tokens).verify(`${secret}x`), undefined);
  });

  test('a revoked token no longer verifies, and names are unique', () => {
    const tokens = file();
    const secret = tokens.create('a', ['*']);
    assert.throws(() => tokens.create('a', ['*']), /exists/);
    assert.equal(tokens.revoke('a'), true);
    assert.equal(tokens.revoke('a'), false);
    assert.equal(new TokenVerifier(tokens).verify(secret), undefined);
  });

  test('dataset patterns: * is a wildcard, everything else literal', () => {
    assert.ok(datasetPatternMatches('public-*', 'public-global-fishing-events'));
    assert.ok(datasetPatternMatches('*', 'anything'));
    assert.ok(datasetPatternMatches('public-global-fishing-events', 'public-global-fishing-events'));
    assert.ok(!datasetPatternMatches('public-global-fishing-events', 'public-global-fishing-events-2'));
    assert.ok(!datasetPatternMatches('public.global*', 'publicXglobal-fishing'));
  });
});
