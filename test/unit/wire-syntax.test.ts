import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalParameterName } from '../../src/query/parameters.ts';
import { ProblemCollector } from '../../src/query/errors.ts';
import { ListGetQuerySchema, ListPostBodySchema } from '../../src/query/schema.ts';
import { readBody, readQueryString, validateAgainst, type CanonicalRequest } from '../../src/http/wire-syntax.ts';

function readGet(query: string): { request: CanonicalRequest; problems: ProblemCollector } {
  const problems = new ProblemCollector();
  const request = readQueryString(query, ListGetQuerySchema, problems, 'GET /v3/events');
  validateAgainst(ListGetQuerySchema, request, problems);
  return { request, problems };
}

describe('canonicalParameterName', () => {
  const cases: [string, string][] = [
    ['vesselTypes', 'vesselTypes'], ['vessel-types', 'vesselTypes'], ['flags[0]', 'flags'], ['flags[]', 'flags'],
    ['start-date', 'startDate'], ['flags-operator', 'flagsOperator'], ['time-filter-mode', 'timeFilterMode'],
    ['is-closed', 'isClosed'], ['gap-intentional-disabling', 'gapIntentionalDisabling'], ['buffer-value', 'bufferValue'],
  ];
  for (const [spelled, canonical] of cases) {
    test(`maps ${spelled} to ${canonical}`, () => assert.equal(canonicalParameterName(spelled), canonical));
  }
});

describe('GET query strings', () => {
  const base = 'datasets=public-global-fishing-events:latest&limit=5&offset=0';

  test('repeated, comma-separated, indexed and percent-encoded indexed arrays mean the same', () => {
    const forms = ['flags=CHN&flags=ESP', 'flags=CHN,ESP', 'flags[0]=CHN&flags[1]=ESP', 'flags%5B0%5D=CHN&flags%5B1%5D=ESP', 'flags[0]=CHN&flags=ESP'];
    for (const form of forms) {
      const { request, problems } = readGet(`${base}&${form}`);
      assert.ok(problems.empty, `${form}: ${JSON.stringify(problems.messages)}`);
      assert.deepEqual(request.values['flags'], ['CHN', 'ESP'], form);
    }
  });

  test('camel and kebab spellings are both accepted and reported as spelled', () => {
    const { request, problems } = readGet(`${base}&vessel-types=fishing&vesselTypesOperator=exclude&start-date=2020-01-01`);
    assert.ok(problems.empty);
    assert.deepEqual(request.values['vesselTypes'], ['FISHING']);
    assert.equal(request.values['vesselTypesOperator'], 'EXCLUDE');
    assert.equal(request.values['startDate'], '2020-01-01');
    assert.equal(request.spelled.get('vesselTypes'), 'vessel-types');
  });

  test('numbers arrive as strings and are coerced; limit and offset are required', () => {
    const ok = readGet(base);
    assert.equal(ok.request.values['limit'], 5);
    const missing = readGet('datasets=public-global-fishing-events:latest');
    assert.deepEqual(missing.problems.messages.map((m) => m.title).sort(), ['limit', 'offset']);
  });

  test('a + decoded as a space in sort still means +start', () => {
    assert.equal(readGet(`${base}&sort=+start`).request.values['sort'], '+start');
    assert.equal(readGet(`${base}&sort=%2Bend`).request.values['sort'], '+end');
    assert.equal(readGet(`${base}&sort=-START`).request.values['sort'], '-start');
  });

  test('one message per bad parameter, naming it and what is allowed', () => {
    const { problems } = readGet('datasets=x&limit=0&offset=a&types=FISH&sort=up&bogus=1&region=8371');
    const byTitle = Object.fromEntries(problems.messages.map((m) => [m.title, m.detail]));
    assert.equal(byTitle['limit'], 'limit must be an integer >= 1 and <= 2147483647, got "0"');
    assert.match(byTitle['offset']!, /offset must be an integer >= 0 and <= 2147483647, got "a"/);
    assert.match(byTitle['types']!, /one of ENCOUNTER, FISHING, LOITERING, GAP_START, GAP, PORT_VISIT/);
    assert.match(byTitle['sort']!, /one of \+start, -start, \+end, -end/);
    assert.match(byTitle['bogus']!, /not a parameter of GET \/v3\/events/);
    assert.match(byTitle['region']!, /not a parameter of GET \/v3\/events/);
  });

  test('a scalar given twice with different values is a 422 problem', () => {
    const { problems } = readGet(`${base}&timeFilterMode=OVERLAP&time-filter-mode=END-DATE`);
    assert.equal(problems.messages[0]?.title, 'timeFilterMode');
  });
});

describe('POST bodies', () => {
  function read(body: unknown) {
    const problems = new ProblemCollector();
    const request = readBody(body, ListPostBodySchema, problems, 'POST /v3/events');
    validateAgainst(ListPostBodySchema, request, problems);
    return { request, problems };
  }

  test('camelCase and hyphenated members both work', () => {
    const { request, problems } = read({ datasets: ['public-global-fishing-events:latest'], 'start-date': '2020-01-01', endDate: '2021-01-01' });
    assert.ok(problems.empty);
    assert.equal(request.values['startDate'], '2020-01-01');
  });

  test('the same member twice with different values is a problem; with equal values it is fine', () => {
    assert.equal(read({ datasets: ['a:latest'], startDate: '2020-01-01', 'start-date': '2020-01-02' }).problems.empty, false);
    assert.equal(read({ datasets: ['a:latest'], startDate: '2020-01-01', 'start-date': '2020-01-01' }).problems.empty, true);
  });

  test('a body that is not an object is a problem titled body', () => {
    assert.equal(read([1, 2]).problems.messages[0]?.title, 'body');
  });

  test('a single string where a list is expected becomes a one-element list', () => {
    assert.deepEqual(read({ datasets: 'public-global-fishing-events:latest' }).request.values['datasets'], ['public-global-fishing-events:latest']);
  });
});

describe('properties', () => {
  const flag = fc.stringMatching(/^[A-Z]{3}$/);
  test('every array form of any flag list parses to the same list', () => {
    fc.assert(
      fc.property(fc.array(flag, { minLength: 1, maxLength: 6 }), fc.array(fc.constantFrom('repeat', 'comma', 'index', 'encoded'), { minLength: 1, maxLength: 6 }), (flags, forms) => {
        const parts = flags.map((f, i) => {
          const form = forms[i % forms.length];
          return form === 'repeat' || form === 'comma' ? `flags=${f}` : form === 'index' ? `flags[${i}]=${f}` : `flags%5B${i}%5D=${f}`;
        });
        const comma = forms[0] === 'comma' ? `flags=${flags.join(',')}` : parts.join('&');
        const { request, problems } = readGet(`datasets=public-global-fishing-events:latest&limit=1&offset=0&${comma}`);
        assert.ok(problems.empty);
        assert.deepEqual(request.values['flags'], flags);
      }),
    );
  });

  test('arbitrary query strings never throw: they parse or yield problems', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 8 }), (pairs) => {
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        readGet(query);
      }),
    );
  });

  test('limit accepts exactly the integers >= 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), (limit) => {
        const { problems } = readGet(`datasets=public-global-fishing-events:latest&offset=0&limit=${limit}`);
        assert.equal(problems.empty, limit >= 1, `limit=${limit}`);
      }),
    );
    for (const bad of ['abc', '1.5', '', '-1', '0', 'true']) {
      assert.equal(readGet(`datasets=public-global-fishing-events:latest&offset=0&limit=${bad}`).problems.empty, false, `limit=${bad}`);
    }
  });
});
