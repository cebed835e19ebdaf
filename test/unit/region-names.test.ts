// Region names are found by any part of them, accents and case aside (`regions list --name`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { regionNameMatches } from '../../src/domain/regions.ts';

test('a name holds the text typed with or without its accents, in any case', () => {
  assert.ok(regionNameMatches('Senegal', 'sénégal'));
  assert.ok(regionNameMatches('Sénégal', 'SENEGAL'));
  assert.ok(regionNameMatches("Côte d'Ivoire", 'cote d'));
  assert.ok(regionNameMatches('São Tomé and Príncipe', 'principe'));
  assert.equal(regionNameMatches('Senegal', 'gambia'), false);
  assert.equal(regionNameMatches('Mauritania', 'mauritius'), false);
});

test('every part of a name, accented or not, upper or lower case, is found in it', () => {
  const letters = fc.constantFrom(...'aeiouncAEIOUNCéèêëàâäîïôöûüçñÉÈÇÑ -\''.split(''));
  fc.assert(fc.property(fc.array(letters, { minLength: 1, maxLength: 30 }).map((a) => a.join('')), fc.nat(), fc.nat(), (name, a, b) => {
    const [from, to] = [a % name.length, b % name.length].sort((x, y) => x - y) as [number, number];
    const part = name.slice(from, to + 1);
    const plain = part.normalize('NFD').replace(/\p{M}/gu, '');
    return regionNameMatches(name, part) && regionNameMatches(name, plain.toUpperCase()) && regionNameMatches(name.toLowerCase(), plain);
  }));
});
