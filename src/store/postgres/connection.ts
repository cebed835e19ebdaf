// How the PostgreSQL engine connects: the URL a user gives (`--database-url`, DATABASE_URL), named
// in messages without its password.
import type pg from 'pg';

export function connectionConfig(url: string, extra: pg.ClientConfig = {}): pg.ClientConfig {
  return { connectionString: url, application_name: 'vessel-events', ...extra };
}

/** The URL with any password replaced, for messages and logs. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL database (its URL does not parse)';
  }
}
