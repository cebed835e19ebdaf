// The vessel search's parts: the `where` parser (every expression it prints back, and the
// refusals that name the problem), names compared as searches compare them, and the directory's
// ranking and `where` matching against a plain reading of the identities.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidParameters } from '../../src/query/errors.ts';
import { MAX_WHERE_DEPTH, parseWhere, WHERE_FIELDS, type WhereExpression } from '../../src/query/vessel-where.ts';
import { normalizeVesselSearch, writeCursor } from '../../src/query/vessel-params.ts';
import { nameWords, normalizedShipname } from '../../src/vessels/names.ts';
import { VesselDirectory, type VesselMatches } from '../../src/vessels/directory.ts';
import { identityOfRow, identityRow, type RegistryRecord, type SelfReportedIdentity } from '../../src/domain/vessel-identity.ts';

/** An expression as a client might write it: quotes doubled, AND/OR in any case, parentheses around every group. */
function print(e: WhereExpression, caseOf: (w: string) => string): string {
  if (e.op === 'equals') return `${e.field} = '${e.value.replace(/'/g, "''")}'`;
  return `(${e.operands.map((o) => print(o, caseOf)).join(` ${caseOf(e.op.toUpperCase())} `)})`;
}

const comparison = fc.record({ op: fc.constant('equals' as const), field: fc.constantFrom(...WHERE_FIELDS), value: fc.string({ maxLength: 12 }) });
const expression: fc.Arbitrary<WhereExpression> = fc.letrec<{ e: WhereExpression }>((tie) => ({
  e: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.record({ op: fc.constantFrom('and' as const, 'or' as const), operands: fc.array(tie('e'), { minLength: 2, maxLength: 3 }) })),
})).e;

function refusal(text: string): string {
  try {
    parseWhere(text);
  } catch (e) {
    assert.ok(e instanceof InvalidParameters, String(e));
    assert.equal(e.messages[0]!.title, 'where');
    return e.messages[0]!.detail;
  }
  assert.fail(`"${text}" was accepted`);
}

describe('where', () => {
  test('reads back every expression printed with its parentheses, whatever the case of AND and OR', () => {
    fc.assert(fc.property(expression, fc.boolean(), (e, lower) => {
      const depth = (x: WhereExpression): number => (x.op === 'equals' ? 0 : 1 + Math.max(...x.operands.map(depth)));
      fc.pre(depth(e) < MAX_WHERE_DEPTH);
      assert.deepEqual(parseWhere(print(e, (w) => (lower ? w.toLowerCase() : w))), JSON.parse(JSON.stringify(e)));
    }), { numRuns: 300 });
  });

  test('AND binds tighter than OR; mmsi is the ssvid; values may be bare or in double quotes', () => {
    assert.deepEqual(parseWhere(`shipname = 'A' OR mmsi = 441618000 AND flag = "KOR"`), {
      op: 'or', operands: [{ op: 'equals', field: 'shipname', value: 'A' }, { op: 'and', operands: [{ op: 'equals', field: 'ssvid', value: '441618000' }, { op: 'equals', field: 'flag', value: 'KOR' }] }],
    });
    assert.deepEqual(parseWhere(`(shipname = 'SEIN PHOENIX' OR mmsi = '441618000') AND flag = 'KOR'`), {
      op: 'and', operands: [{ op: 'or', operands: [{ op: 'equals', field: 'shipname', value: 'SEIN PHOENIX' }, { op: 'equals', field: 'ssvid', value: '441618000' }] }, { op: 'equals', field: 'flag', value: 'KOR' }],
    });
  });

  test('refuses what it does not read, saying where and what', () => {
    assert.match(refusal(`length = 3`), /unknown field "length" at character 1/);
    assert.match(refusal(`shipname != 'A'`), /"!" at character 10/);
    assert.match(refusal(`shipname LIKE 'A%'`), /expects "=" after shipname but found "LIKE"/);
    assert.match(refusal(`shipname > 'A'`), /">" at character 10/);
    assert.match(refusal(`(flag = 'CHN'`), /expects "\)" but found the end/);
    assert.match(refusal(`flag = 'CHN')`), /expects AND, OR or the end but found "\)" at character 13/);
    assert.match(refusal(`flag = 'CHN`), /opened at character 8 and never closed/);
    assert.match(refusal(`flag = 'CHN' AND`), /expects a field .* but found the end/);
    assert.match(refusal(`flag =`), /expects a value .* but found the end/);
    assert.match(refusal(`   `), /is empty/);
    assert.match(refusal(`${'('.repeat(MAX_WHERE_DEPTH + 1)}flag = 'A'${')'.repeat(MAX_WHERE_DEPTH + 1)}`), /deeper than/);
    assert.match(refusal(`flag = '${'A'.repeat(3000)}'`), /at most 2000/);
  });

  test('never throws anything but a 422 naming where', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (text) => {
      try {
        parseWhere(text);
      } catch (e) {
        assert.ok(e instanceof InvalidParameters && e.messages[0]!.title === 'where', String(e));
      }
    }), { numRuns: 1000 });
  });
});

describe('names', () => {
  test('accents, case, spaces and punctuation aside', () => {
    assert.equal(normalizedShipname('Frío Forwin-2'), 'FRIOFORWIN2');
    assert.deepEqual(nameWords('Don  Tito, 3'), ['DON', 'TITO', '3']);
    fc.assert(fc.property(fc.string(), (s) => assert.equal(normalizedShipname(normalizedShipname(s)), normalizedShipname(s))));
  });
});

const registered = (vesselId: string): RegistryRecord => ({
  vesselId, ssvid: null, imo: '9076260', callsign: 'UCRZ', shipname: 'SEA STAR', flag: 'ECU', geartypes: [], lengthM: null, tonnageGt: null,
  sourceCode: ['TEST'], dateFrom: null, dateTo: null, owner: null, authorizations: [],
});

const identity = (vesselId: string, shipname: string | null, ssvid: string | null, flag: string | null, lastSeen = '2020-01-01T00:00:00Z'): SelfReportedIdentity => ({
  vesselId, ssvid, shipname, flag, type: 'fishing', gearType: null, firstSeen: '2019-01-01T00:00:00Z', lastSeen, events: 1,
});

describe('the directory', () => {
  const directory = new VesselDirectory([
    identity('v1', 'DON TITO', '775998121', 'PER'),
    identity('v2', 'DÓN TITO II', '775998122', 'PER'),
    identity('v3', 'TITO DON', '412000001', 'CHN'),
    identity('v4', 'ADON TITOS', '412000002', 'CHN'),
    identity('v5', 'SEA STAR', '775998', 'ECU'),
    identity('v6', 'OLD NAME', '441618000', 'KOR', '2015-01-01T00:00:00Z'),
    identity('v6', 'SEIN PHOENIX', '441618000', 'KOR', '2021-01-01T00:00:00Z'),
  ].map(identityRow), [registered('v5')]);
  const ids = (found: VesselMatches) => found.slice().map((v) => v.id);

  test('ranks an identifier, then the name, its start, its words, a part of it, then MMSIs it starts', () => {
    assert.deepEqual(ids(directory.search({ query: 'don tito' })), ['v1', 'v2', 'v3', 'v4']);
    assert.deepEqual(ids(directory.search({ query: '775998' })), ['v5', 'v1', 'v2']);
    // A vessel id is an identifier too.
    assert.deepEqual(ids(directory.search({ query: ' v3 ' })), ['v3']);
    assert.deepEqual(ids(directory.search({ query: 'phoenix' })), ['v6']);
    assert.deepEqual(directory.vessel('v6')!.identities.map((i) => i.shipname), ['SEIN PHOENIX', 'OLD NAME']);
  });

  test('where matches a vessel when one of its identities meets the whole expression', () => {
    const where = parseWhere(`(shipname = 'SEIN PHOENIX' OR mmsi = '441618000') AND flag = 'kor'`);
    assert.deepEqual(ids(directory.search({ where })), ['v6']);
    assert.deepEqual(ids(directory.search({ where: parseWhere(`shipname = 'old name' AND shipname = 'sein phoenix'`) })), []);
    assert.deepEqual(ids(directory.search({ where: parseWhere(`flag = 'PER'`), query: 'tito' })), ['v1', 'v2']);
    assert.deepEqual(ids(directory.search({ where: parseWhere(`imo = '9076260' OR callsign = 'UCRZ'`) })), ['v5']);
    assert.deepEqual(ids(directory.search({ where: parseWhere(`mmsi = '775998'`) })), ['v5']);
    assert.deepEqual(ids(directory.search({ where: parseWhere(`mmsi = '77599'`) })), []);
    assert.deepEqual(ids(directory.search({ where: parseWhere(`shipname = 'Tito Don'`) })), ['v3']);
  });

  test('keeps the vessels at the match levels asked for, and pages without making the others', () => {
    const found = directory.search({ query: 'tito' });
    // TITO DON starts with it; the others hold it as a word start, by name.
    assert.deepEqual(ids(found), ['v3', 'v4', 'v1', 'v2']);
    assert.equal(found.length, 4);
    assert.deepEqual(found.slice(1, 3).map((v) => v.id), ['v4', 'v1']);
    assert.deepEqual(ids(directory.search({ query: '775998' }, new Set(['SEVERAL_FIELDS']))), ['v5']);
    assert.deepEqual(ids(directory.search({ query: '775998' }, new Set(['NO_MATCH']))), ['v1', 'v2']);
    assert.equal(directory.vessel('v5')!.registry.length, 1);
  });

  test('finds each vessel by its id, whatever the order of the rows given', () => {
    const rows = fc.sample(fc.shuffledSubarray([...'abcdefghij'].flatMap((v, i) => [identity(v, `N${i}`, null, null, '2020-01-01T00:00:00Z'), identity(v, `M${i}`, null, null, '2021-01-01T00:00:00Z')]), { minLength: 20, maxLength: 20 }), 20);
    for (const shuffled of rows) {
      const d = new VesselDirectory(shuffled.map(identityRow));
      assert.equal(d.size, 10);
      for (const [i, v] of [...'abcdefghij'].entries()) assert.deepEqual(d.vessel(v)!.identities.map((x) => x.shipname), [`M${i}`, `N${i}`]);
      assert.equal(d.vessel('k'), undefined);
      assert.equal(d.vessel(''), undefined);
    }
  });
});

describe('identity rows', () => {
  test('give back the identity packed, nulls and separators in names included', () => {
    const text = fc.option(fc.string({ unit: 'binary', maxLength: 8 }).map((t) => t.replace(/[\u001e\u001f]/g, ' ')), { nil: null });
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 8 }).filter((t) => !/[\u0000\u001e\u001f]/.test(t)), text, text, text, text, text, fc.nat(), (vesselId, ssvid, shipname, flag, type, gearType, events) => {
      fc.pre([ssvid, shipname, flag, type, gearType].every((v) => v !== '\u0000'));
      const i: SelfReportedIdentity = { vesselId, ssvid, shipname, flag, type, gearType, firstSeen: '2019-01-01T00:00:00Z', lastSeen: '2020-01-01T00:00:00Z', events };
      assert.deepEqual(identityOfRow(identityRow(i)), i);
    }), { numRuns: 500 });
    assert.equal(identityOfRow(identityRow({ ...identity('v', 'A\u001fB', null, null) })).shipname, 'A B');
  });

  test('agrees with a plain reading of the identities on random names and queries', () => {
    const word = fc.constantFrom('DON', 'TITO', 'SEA', 'STAR', 'ÓCEAN', 'ocean', '7', 'II');
    fc.assert(fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }), fc.array(word, { minLength: 1, maxLength: 2 }), (names, queryWords) => {
      const all = names.map((n, i) => identity(`v${i}`, n.join(' '), String(100000 + i), 'PER'));
      const query = queryWords.join(' ');
      fc.pre([...query].length >= 3);
      const found = new VesselDirectory(all.map(identityRow)).search({ query }).slice();
      // Every vessel whose name holds each of the query's words as a word start, and only those, is found (a part of a name ranks after).
      const q = normalizedShipname(query);
      const expected = all.filter((i) => {
        const n = normalizedShipname(i.shipname!);
        return n.includes(q) || nameWords(query).every((w) => nameWords(i.shipname!).some((x) => x.startsWith(w)));
      }).map((i) => i.vesselId).sort();
      assert.deepEqual(found.map((v) => v.id).sort(), expected);
    }), { numRuns: 300 });
  });
});

describe('search parameters', () => {
  const spelling = (name: string) => name;
  const problems = (params: Record<string, unknown>) => {
    try {
      normalizeVesselSearch(params as never, spelling);
    } catch (e) {
      return (e as InvalidParameters).messages.map((m) => `${m.title}: ${m.detail}`).join('\n');
    }
    return '';
  };
  test('a query of 3 characters or a where, a cursor of the same search, JSON only', () => {
    assert.match(problems({ query: 'ab' }), /^query: query "ab" is shorter than 3 characters/);
    assert.match(problems({}), /^query: give query/);
    assert.match(problems({ query: 'abc', binary: true }), /^binary: /);
    assert.match(problems({ query: 'abc', since: 'not a cursor' }), /^since: /);
    assert.match(problems({ query: 'abc', since: writeCursor(20, 'another search') }), /belongs to another search/);
    const search = normalizeVesselSearch({ query: 'abc' }, spelling);
    assert.equal(normalizeVesselSearch({ query: 'abc', since: writeCursor(40, search.fingerprint) }, spelling).offset, 40);
    assert.equal(problems({ query: 'abc' }), '');
  });
});
