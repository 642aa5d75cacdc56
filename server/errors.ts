import type { ProjectRole } from '../db/schema/projects.js';
import { ERROR_CODES, type ErrorCode, type ErrorCodeWithStatus } from './error-codes.js';
import type { Capability } from './roles/capabilities.js';

export type { ErrorCode } from './error-codes.js';

/** One field at fault in a request, for clients that mark it in a form: `path` as `members.0.role`. */
export interface FieldProblem {
  path: string;
  message: string;
}

export interface ServiceErrorOptions {
  /** Response headers that belong to the error, e.g. `Retry-After` on a 429. */
  headers?: Record<string, string>;
  /** The fields at fault, on a 400 `SERVICE_VALIDATION_FAILED` about the request's body or query. */
  fields?: FieldProblem[];
  /** Only for `SERVICE_BAD_REQUEST`, whose status is the one the HTTP layer gave; otherwise the code's. */
  status?: number;
}

/** The one error type: every failure a client sees is one of these, written by `errorMiddleware`. */
export class ServiceError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly fields: FieldProblem[] | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ServiceErrorOptions = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = options.status ?? ERROR_CODES[code].status;
    this.headers = options.headers ?? {};
    this.fields = options.fields;
  }
}

export const validationFailed = (message: string, fields?: FieldProblem[]) =>
  new ServiceError('SERVICE_VALIDATION_FAILED', message, { fields });

export const unauthenticated = (message = 'Missing or invalid credentials.') =>
  new ServiceError('SERVICE_UNAUTHENTICATED', message);

export const permissionDenied = (role: ProjectRole, capability: Capability) =>
  new ServiceError(
    'SERVICE_PERMISSION_DENIED',
    `Your role ${role} does not have the capability ${capability} required for this action.`,
  );

export const notFound = (code: ErrorCodeWithStatus<404>, message: string) => new ServiceError(code, message);

export const projectNotFound = () =>
  notFound('SERVICE_PROJECT_NOT_FOUND', 'Project not found, or you are not a member of it.');

export const conflict = (code: ErrorCodeWithStatus<409>, message: string) => new ServiceError(code, message);

/** 429 with `Retry-After` in whole seconds (at least 1), as RFC 9110 has it. */
export const rateLimited = (message: string, retryAfterMs: number, headers: Record<string, string> = {}) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ServiceError('SERVICE_RATE_LIMITED', `${message} Try again in ${seconds} s.`, {
    headers: { ...headers, 'Retry-After': String(seconds) },
  });
};
