/**
 * What stands for a secret in a recording: credentials, key secrets, tokens, signing secrets and signatures never
 * enter the file (issue 49). Replaced where they are taken, before anything is stored.
 */
export const REDACTED = '[redacted]';

/** Headers that carry a credential or a signature, by lower-case name. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'service-signature']);

/** JSON members whose value is a secret: `token`, `accessToken`, `refresh_token`, `secret`, `signingSecret` … */
const SECRET_MEMBER = /(token|secret|signature|password|authorization)$/i;
/** Whether a JSON text may have such a member (a member name ends in one of these words, then its closing quote). */
const MAY_NAME_A_SECRET = /(token|secret|signature|password|authorization)"/i;

export interface HarHeader {
  name: string;
  value: string;
}

/** Headers as HAR lists them, the secret ones replaced. */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>): HarHeader[] {
  const out: HarHeader[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const secret = SECRET_HEADERS.has(name.toLowerCase());
    for (const one of Array.isArray(value) ? value : [value])
      out.push({ name, value: secret ? REDACTED : String(one) });
  }
  return out;
}

/** A URL with its `access_token` (and any other credential in the query) replaced. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  // Most have no query: reading `searchParams` would build it for nothing.
  if (parsed.search === '') return parsed.href;
  for (const name of [...parsed.searchParams.keys()])
    if (SECRET_MEMBER.test(name)) parsed.searchParams.set(name, REDACTED);
  return parsed.toString();
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value))
    out[name] = SECRET_MEMBER.test(name) && member !== null && member !== undefined ? REDACTED : redactValue(member);
  return out;
}

/**
 * A body as text, secret members of its JSON replaced at any depth; text that is not JSON is kept as it is (the
 * server's own bodies and frames are all JSON).
 */
export function redactBody(text: string): string {
  // Most bodies and frames name no secret: a scan of the text is far cheaper than parsing it and writing it again.
  if (!MAY_NAME_A_SECRET.test(text)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(redactValue(parsed));
}

/** A parsed JSON body (a request's, as Express read it) as redacted text. */
export const redactJson = (value: unknown): string => redactBody(JSON.stringify(value) ?? '');
