import type { ProjectRole } from '../db/schema/projects.js';
import type { Capability } from './roles/capabilities.js';

export type ErrorCode = `SERVICE_${string}`;

/** The one error type: every failure a client sees is one of these, written by `errorMiddleware`. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Response headers that belong to the error, e.g. `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const validationFailed = (message: string) => new ServiceError(400, 'SERVICE_VALIDATION_FAILED', message);

export const unauthenticated = (message = 'Missing or invalid credentials.') =>
  new ServiceError(401, 'SERVICE_UNAUTHENTICATED', message);

export const permissionDenied = (role: ProjectRole, capability: Capability) =>
  new ServiceError(
    403,
    'SERVICE_PERMISSION_DENIED',
    `Your role ${role} does not have the capability ${capability} required for this action.`,
  );

export const notFound = (code: ErrorCode, message: string) => new ServiceError(404, code, message);

export const projectNotFound = () =>
  notFound('SERVICE_PROJECT_NOT_FOUND', 'Project not found, or you are not a member of it.');

export const conflict = (code: ErrorCode, message: string) => new ServiceError(409, code, message);

/** 429 with `Retry-After` in whole seconds (at least 1), as RFC 9110 has it. */
export const rateLimited = (message: string, retryAfterMs: number, headers: Record<string, string> = {}) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ServiceError(429, 'SERVICE_RATE_LIMITED', `${message} Try again in ${seconds} s.`, {
    ...headers,
    'Retry-After': String(seconds),
  });
};
