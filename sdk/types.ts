/**
 * The SDK's types, all derived from the zod schemas the server validates with (type-only imports:
 * no server code reaches a bundle). Responses are the schemas' output; requests their input.
 */
import type { z } from 'zod';
import type { auditEntrySchema, auditQuery } from '../server/audit/schemas.js';
import type { loginBody, registerBody, sessionSchema, userSchema, whoamiSchema } from '../server/auth/schemas.js';
import type { environmentQuery, environmentSchema } from '../server/environments.js';
import type { apiKeySchema, createdApiKeySchema, createKeyBody } from '../server/keys/schemas.js';
import type { addMemberBody, memberSchema, roleSchema, updateMemberBody } from '../server/members/schemas.js';
import type { createProjectBody, projectSchema, updateProjectBody } from '../server/projects/schemas.js';
import type { listOf, pageOf } from '../server/shared/schemas.js';

/**
 * A request as the SDK takes it: the schema's input, except for fields the server lower-cases or
 * coerces before checking (environment, limit), whose zod input type is `unknown`; those take the
 * checked type instead, so that the compiler still catches a typo.
 */
export type RequestOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: unknown extends z.input<S>[K] ? z.output<S>[K & keyof z.output<S>] : z.input<S>[K];
};

/** `development`, `staging` or `production`. (The server also accepts these in any letter case.) */
export type Environment = z.output<typeof environmentSchema>;
/** `OWNER`, `ADMIN`, `DEVELOPER`, `VIEWER` or `BILLING`. */
export type ProjectRole = z.output<typeof roleSchema>;

export type RegisterInput = RequestOf<typeof registerBody>;
export type LoginInput = RequestOf<typeof loginBody>;
export type User = z.output<typeof userSchema>;
export type Session = z.output<typeof sessionSchema>;
/** The credential of the request: a signed-in user, or an API key's id, project and environment. */
export type Whoami = z.output<typeof whoamiSchema>;
/** `whoami` with a session token. */
export type SessionWhoami = Extract<Whoami, { type: 'session' }>;
/** `whoami` with an API key. */
export type KeyWhoami = Extract<Whoami, { type: 'api_key' }>;

export type CreateProjectInput = RequestOf<typeof createProjectBody>;
export type UpdateProjectInput = RequestOf<typeof updateProjectBody>;
export type Project = z.output<typeof projectSchema>;

export type AddMemberInput = RequestOf<typeof addMemberBody>;
export type UpdateMemberInput = RequestOf<typeof updateMemberBody>;
export type Member = z.output<typeof memberSchema>;

export type CreateApiKeyInput = RequestOf<typeof createKeyBody>;
/** `{environment?}`: the environment a key operation acts in (development when omitted). */
export type EnvironmentInput = RequestOf<typeof environmentQuery>;
export type ApiKey = z.output<typeof apiKeySchema>;
/** A new key: its metadata and, this once, the full `key` text. */
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;

export type AuditQuery = RequestOf<typeof auditQuery>;
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** One page of a paged list: `nextCursor` is the `cursor` of the next page, null at the end. */
export type Page<Item extends z.ZodType> = z.output<ReturnType<typeof pageOf<Item>>>;
/** A list that does not page: `{data}`. */
export type List<Item extends z.ZodType> = z.output<ReturnType<typeof listOf<Item>>>;

export type ProjectList = List<typeof projectSchema>;
export type MemberList = List<typeof memberSchema>;
export type ApiKeyList = List<typeof apiKeySchema>;
export type AuditPage = Page<typeof auditEntrySchema>;
