// The OpenAPI document's frame; paths and schemas come from the routes' TypeBox schemas.
import { WIRE_FORMAT_HEADER } from '../shape/wire.ts';

export function openApiDocument() {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Vessel Activity Events Service',
      version: '3',
      description: [
        'Vessel activity events (apparent fishing, encounters, loitering, port visits, AIS gaps), compatible with the Global Fishing Watch Events API v3.',
        'Every /v3 route is also served under /api/v3.',
        'GET parameters accept the spelling shown and kebab-case (`vessel-types`, `start-date`); arrays may be repeated, comma-separated or indexed (`flags[0]=CHN`).',
        'POST bodies accept camelCase and the hyphenated spellings (`start-date`).',
        `The \`${WIRE_FORMAT_HEADER}\` request header chooses the wire format: \`gfw\` (the default unless the deployment sets \`--wire spec\`: the live service's types, which the official clients expect) or \`spec\` (numbers as the interface declares them).`,
        'Errors are JSON: {statusCode, error, messages:[{title, detail}]}.',
      ].join('\n\n'),
    },
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'http' as const, scheme: 'bearer', description: 'Create a token with `vessel-events token create`.' } },
    },
  };
}
