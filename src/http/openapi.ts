// The OpenAPI document's frame; paths and schemas come from the routes' TypeBox schemas. OpenAPI
// 3.1, whose schemas are JSON Schema: TypeBox's keywords (a numeric exclusiveMinimum, examples
// arrays) are valid there as they are.
import { WIRE_FORMAT_HEADER } from '../shape/wire.ts';

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vessel Activity Events Service',
      version: '3',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description: [
        'Vessel activity events (apparent fishing, encounters, loitering, port visits, AIS gaps), compatible with the Global Fishing Watch Events API v3.',
        'Every /v3 route is also served under /api/v3.',
        'GET parameters accept the spelling shown and kebab-case (`vessel-types`, `start-date`); arrays may be repeated, comma-separated or indexed (`flags[0]=CHN`).',
        'POST bodies accept camelCase and the hyphenated spellings (`start-date`).',
        `The \`${WIRE_FORMAT_HEADER}\` request header chooses the wire format: \`gfw\` (the default unless the deployment sets \`--wire spec\`: the live service's types, which the official clients expect) or \`spec\` (numbers as the interface declares them).`,
        'Errors are JSON: {statusCode, error, messages:[{title, detail}]}.',
        'To try an operation here, choose "Authorize" and paste a token (`vessel-events token create`). The examples pre-filled for the data operations name one event of the loaded data, so that each request finds it.',
      ].join('\n\n'),
    },
    // Relative: the document is right wherever the service is mounted.
    servers: [{ url: '/', description: 'this service' }],
    tags: [
      { name: 'events', description: 'Events: lists with filters, and one event by id' },
      { name: 'statistics', description: 'Counts, time series and groups over the same filters' },
      { name: 'regions', description: 'The regions that filters and groups name, with their labels' },
      { name: 'operations', description: 'Health and readiness, without a token' },
    ],
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'http' as const, scheme: 'bearer', description: 'Create a token with `vessel-events token create`.' } },
    },
  };
}
