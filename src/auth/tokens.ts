// Tokens (docs/api.md, "Access"): each has a name and the dataset patterns it may read. The file
// keeps only SHA-256 hashes; a token is shown once, when created. Tokens are 32 random bytes, so a
// fast hash is enough (no password stretching is needed for high-entropy secrets).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface TokenRecord {
  name: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  /** Dataset id patterns, `*` matching any run of characters (`public-*`). */
  datasets: string[];
  createdAt: string;
  /** Requests per minute this token may make; absent: the server's --rate-limit. */
  rateLimit?: number;
}

interface TokensFile {
  tokens: TokenRecord[];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function datasetPatternMatches(pattern: string, datasetId: string): boolean {
  const regex = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return regex.test(datasetId);
}

export class TokenFile {
  constructor(readonly path: string) {}

  read(): TokenRecord[] {
    if (!existsSync(this.path)) return [];
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as TokensFile;
    return parsed.tokens ?? [];
  }

  /** Creates a token; returns the secret, which is never stored. */
  create(name: string, datasets: string[], rateLimit?: number): string {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`token name "${name}" may contain only letters, digits, ".", "_" and "-"`);
    if (datasets.length === 0) throw new Error('a token needs at least one dataset pattern (--datasets "public-*")');
    const tokens = this.read();
    if (tokens.some((t) => t.name === name)) throw new Error(`a token named "${name}" exists; revoke it first`);
    const secret = `ve_${randomBytes(32).toString('base64url')}`;
    tokens.push({ name, hash: hashToken(secret), datasets, createdAt: new Date().toISOString(), ...(rateLimit !== undefined ? { rateLimit } : {}) });
    this.write(tokens);
    return secret;
  }

  /** Removes the token; returns false when there was none of that name. */
  revoke(name: string): boolean {
    const tokens = this.read();
    const kept = tokens.filter((t) => t.name !== name);
    if (kept.length === tokens.length) return false;
    this.write(kept);
    return true;
  }

  private write(tokens: TokenRecord[]): void {
    mkdirSync(dirname(this.path), { recursive: true });
    // Write then rename: a running server never reads a half-written file.
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ tokens }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}

/** The server's view of the tokens file, re-read when the file changes (create/revoke apply live). */
export class TokenVerifier {
  private tokens: TokenRecord[] = [];
  private stamp = '';
  private checkedAt = 0;

  constructor(private readonly file: TokenFile) {
    this.refresh();
  }

  /** The token's record, or undefined for an unknown or revoked token. */
  verify(secret: string): TokenRecord | undefined {
    // Revocations apply within a second; a token created a moment ago works at once, because an
    // unknown token makes the file be checked again (a stat, cheap enough for every miss).
    if (Date.now() - this.checkedAt > 1000) this.refresh();
    const hash = Buffer.from(hashToken(secret), 'hex');
    const find = () => this.tokens.find((t) => timingSafeEqual(Buffer.from(t.hash, 'hex'), hash));
    return find() ?? (this.refresh(), find());
  }

  private refresh(): void {
    this.checkedAt = Date.now();
    const stamp = existsSync(this.file.path) ? `${statSync(this.file.path).mtimeMs}:${statSync(this.file.path).size}` : 'missing';
    if (stamp === this.stamp) return;
    this.tokens = this.file.read();
    this.stamp = stamp;
  }
}
