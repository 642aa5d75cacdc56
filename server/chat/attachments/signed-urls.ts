import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EnvironmentScope } from '../../../db/scope.js';
import type { Clock } from '../../clock.js';
import { ENVIRONMENTS, type Environment } from '../../environments.js';
import { ServiceError } from '../../errors.js';

/** Upload and download URLs are signed for their purpose: one can never pass for the other. */
export type UrlPurpose = 'upload' | 'download';

export interface SignedUrl {
  /** Path and query, e.g. `/v1/chat/attachments/att_…/content?prj=…&env=…&expires=…&sig=…`. */
  path: string;
  expiresAt: number;
}

export const contentPath = (attachmentId: string) => `/v1/chat/attachments/${encodeURIComponent(attachmentId)}/content`;

const isEnvironment = (value: unknown): value is Environment =>
  typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);

const signatureInvalid = () =>
  new ServiceError('SERVICE_SIGNATURE_INVALID', 'The URL signature is missing or does not match this request.');

/**
 * Presigned URLs in the manner of S3: the URL itself is the credential. The HMAC-SHA256 covers the
 * purpose, the attachment's project and environment, its id and the expiry (unix seconds), so no
 * part can be changed. The scope travels in the URL so that the lookup stays environment-scoped.
 */
export function createUrlSigner(key: Uint8Array, clock: Clock) {
  const signature = (purpose: UrlPurpose, scope: EnvironmentScope, id: string, expires: number) =>
    createHmac('sha256', key)
      .update(
        ['switchboard-attachment-v1', purpose, scope.projectId, scope.environment, id, String(expires)].join('\n'),
      )
      .digest('hex');

  return {
    sign(purpose: UrlPurpose, scope: EnvironmentScope, id: string, ttlMs: number): SignedUrl {
      const expires = Math.floor((clock.now() + ttlMs) / 1000);
      const query = new URLSearchParams({
        prj: scope.projectId,
        env: scope.environment,
        expires: String(expires),
        sig: signature(purpose, scope, id, expires),
      });
      return { path: `${contentPath(id)}?${query}`, expiresAt: expires * 1000 };
    },

    /**
     * The scope the URL was signed for, or 403: `SERVICE_SIGNATURE_INVALID` when anything was
     * changed or is missing, `SERVICE_URL_EXPIRED` when it is intact but past its expiry.
     */
    verify(purpose: UrlPurpose, id: string, query: Record<string, unknown>): EnvironmentScope {
      const { prj, env, expires, sig } = query;
      if (typeof prj !== 'string' || typeof sig !== 'string' || typeof expires !== 'string' || !isEnvironment(env))
        throw signatureInvalid();
      if (!/^\d{1,12}$/.test(expires)) throw signatureInvalid();
      const scope = { projectId: prj, environment: env };
      const expected = Buffer.from(signature(purpose, scope, id, Number(expires)), 'hex');
      const given = Buffer.from(sig, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw signatureInvalid();
      if (clock.now() >= Number(expires) * 1000)
        throw new ServiceError('SERVICE_URL_EXPIRED', `This ${purpose} URL has expired; ask for a new one.`);
      return scope;
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
