// Typed domain errors. They know nothing of HTTP: src/http/error-handler.ts maps each class to
// a status and renders the GFW error shape (docs/api.md, "Errors") in one place.

/** A parameter's name as the client spelled it (a GET's kebab-case, a POST's camelCase), from its canonical name. */
export type Spelling = (canonical: string) => string;

export interface ProblemMessage {
  /** The parameter concerned, as the client spelled it, or a short title. */
  title: string;
  /** What was wrong and what is allowed. */
  detail: string;
}

export abstract class DomainError extends Error {
  readonly messages: ProblemMessage[];
  constructor(messages: ProblemMessage[]) {
    super(messages.map((m) => `${m.title}: ${m.detail}`).join('; '));
    this.messages = messages;
  }
}

/** One or more request parameters are invalid (422). */
export class InvalidParameters extends DomainError {}

/** A dataset, version, event, region or vessel group does not exist (404). */
export class NotFound extends DomainError {}

/** No valid credential (401). */
export class Unauthorized extends DomainError {}

/** The credential may not read a requested dataset (403). */
export class Forbidden extends DomainError {}

/** A body or geometry exceeds the documented limits (413). */
export class PayloadTooLarge extends DomainError {}

/** The service cannot answer yet, e.g. no data loaded (503). */
export class NotReady extends DomainError {}

/** Too much work is waiting: the client should retry after a moment (503 with Retry-After). */
export class Overloaded extends DomainError {
  constructor(messages: ProblemMessage[], readonly retryAfterSeconds = 1) {
    super(messages);
  }
}

/**
 * The engine's memory limit was reached while other queries held memory (503 with Retry-After):
 * nothing is wrong with the request, and it succeeds once they end.
 */
export class EngineOutOfMemory extends Overloaded {}

/** The token made more requests than its limit allows (429; the limiter sets Retry-After). */
export class RateLimited extends DomainError {}

/** A query ran past the configured time limit (504). */
export class QueryTimeout extends DomainError {}

export function invalid(title: string, detail: string): InvalidParameters {
  return new InvalidParameters([{ title, detail }]);
}

export function notFound(title: string, detail: string): NotFound {
  return new NotFound([{ title, detail }]);
}

/** Collects problems so a request gets one message per bad parameter, not only the first. */
export class ProblemCollector {
  readonly messages: ProblemMessage[] = [];
  add(title: string, detail: string): void {
    if (!this.messages.some((m) => m.title === title && m.detail === detail)) {
      this.messages.push({ title, detail });
    }
  }
  get empty(): boolean {
    return this.messages.length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new InvalidParameters(this.messages);
  }
}
