/**
 * Every error code the API answers, with its HTTP status and when it happens: the one list that the errors thrown,
 * the route table's documented errors (and so the OpenAPI document) and the error table in docs/errors.md (checked
 * by a test) all come from. A code not in this list does not compile.
 */
export const ERROR_CODES = {
  SERVICE_VALIDATION_FAILED: {
    status: 400,
    when: 'Invalid input (the message names each field and why, and `fields` lists them), unknown body or query field, malformed JSON, a NUL character (U+0000) in any text, unknown environment, demoting or removing the last owner',
  },
  SERVICE_WEBHOOK_TARGET_REFUSED: {
    status: 400,
    when: 'A webhook URL the deployment mode does not allow; the message says why',
  },
  SERVICE_SIZE_MISMATCH: { status: 400, when: 'An attachment upload whose length is not the declared size' },
  SERVICE_BAD_REQUEST: {
    status: 400,
    when: 'A request the HTTP layer refused before any route saw it (a malformed path; a request line and headers past 16 KB, 431; malformed HTTP; a request too slow to arrive, 408); the status is the one it gave',
  },
  SERVICE_UNAUTHENTICATED: { status: 401, when: 'Missing, malformed, expired, revoked or wrong-kind credential' },
  SERVICE_PERMISSION_DENIED: {
    status: 403,
    when: 'The member’s role lacks the capability, only an owner may do this, or the conversation role does not allow it',
  },
  SERVICE_REGISTRATION_CLOSED: {
    status: 403,
    when: 'Registering without an invitation on a server whose registration policy is `first-only`',
  },
  SERVICE_PASSWORD_SIGN_IN_DISABLED: {
    status: 403,
    when: 'Signing in or registering with a password on a server that signs in with single sign-on only',
  },
  SERVICE_ORIGIN_NOT_ALLOWED: {
    status: 403,
    when: 'A cross-origin request from a browser origin the server does not allow; the message says how to allow it',
  },
  SERVICE_SIGNATURE_INVALID: {
    status: 403,
    when: 'An attachment URL whose signature is missing, changed or for the other purpose',
  },
  SERVICE_URL_EXPIRED: { status: 403, when: 'An attachment upload or download URL past its expiry' },
  SERVICE_PRODUCTION_ENVIRONMENT: {
    status: 403,
    when: 'A testing tool asked of the production environment, which they never touch (environment reset, snapshots, test clock, fault injection, triggers), or a recording of it where the server does not allow one',
  },
  SERVICE_PROJECT_NOT_FOUND: { status: 404, when: 'No such project, or the caller is not a member' },
  SERVICE_USER_NOT_FOUND: { status: 404, when: 'Adding a member whose address has no account' },
  SERVICE_MEMBER_NOT_FOUND: { status: 404, when: 'The user is not a member of the project' },
  SERVICE_API_KEY_NOT_FOUND: { status: 404, when: 'No active key with that id in the environment' },
  SERVICE_ROOM_NOT_FOUND: {
    status: 404,
    when: 'No such room in the credential’s environment (also another environment’s room)',
  },
  SERVICE_CONVERSATION_NOT_FOUND: {
    status: 404,
    when: 'No such conversation the caller can see (another environment’s, or not a member)',
  },
  SERVICE_MESSAGE_NOT_FOUND: { status: 404, when: 'No such message the caller can see' },
  SERVICE_REACTION_NOT_FOUND: { status: 404, when: 'Removing a reaction the user has not made' },
  SERVICE_ATTACHMENT_NOT_FOUND: {
    status: 404,
    when: 'No such attachment that the caller can see, or one never completed in time',
  },
  SERVICE_WEBHOOK_NOT_FOUND: { status: 404, when: 'No webhook endpoint with that id in the environment' },
  SERVICE_WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, when: 'No such delivery of that endpoint' },
  SERVICE_CONNECTION_NOT_FOUND: { status: 404, when: 'No such connection in the environment (`?environment=`)' },
  SERVICE_ERROR_NOT_FOUND: { status: 404, when: 'No such error record in the environment (`?environment=`)' },
  SERVICE_LIVE_STREAM_NOT_FOUND: { status: 404, when: 'No such live stream in the credential’s environment' },
  SERVICE_HOST_NOT_FOUND: { status: 404, when: 'Removing an identity that is not a host of the live stream' },
  SERVICE_PARTICIPANT_NOT_FOUND: { status: 404, when: 'Leaving a live stream the identity is not in' },
  SERVICE_FAULT_NOT_FOUND: { status: 404, when: 'No injected fault in force with that id in the environment' },
  SERVICE_SNAPSHOT_NOT_FOUND: { status: 404, when: 'No snapshot of that name in the environment' },
  SERVICE_RECORDING_NOT_FOUND: { status: 404, when: 'No recording with that id in the environment' },
  SERVICE_ROUTE_NOT_FOUND: { status: 404, when: 'No such route' },
  SERVICE_EMAIL_TAKEN: { status: 409, when: 'Registering an address that has an account' },
  SERVICE_RECORDING_IN_PROGRESS: { status: 409, when: 'Starting a recording of an environment already being recorded' },
  SERVICE_ACCOUNT_EXISTS: {
    status: 409,
    when: 'Inviting an address that already has an account (add it as a member instead)',
  },
  SERVICE_MEMBER_EXISTS: { status: 409, when: 'Adding someone who is already a member' },
  SERVICE_ROOM_EXISTS: { status: 409, when: 'A room of that name exists in the environment' },
  SERVICE_CONVERSATION_EXISTS: { status: 409, when: 'A conversation of that name exists in the environment' },
  SERVICE_MESSAGE_DELETED: { status: 409, when: 'Editing a deleted message' },
  SERVICE_SNAPSHOT_EXISTS: {
    status: 409,
    when: 'Saving an environment snapshot under a name it has, without `replace`',
  },
  SERVICE_CONFLICT: { status: 409, when: 'A concurrent change won a race; retry' },
  SERVICE_WEBHOOK_DISABLED: { status: 409, when: 'Resending or testing on a disabled webhook endpoint' },
  SERVICE_ATTACHMENT_NOT_UPLOADED: { status: 409, when: 'Completing an attachment before its bytes were uploaded' },
  SERVICE_ATTACHMENT_NOT_COMPLETED: { status: 409, when: 'A download URL for an attachment not yet completed' },
  SERVICE_ATTACHMENT_COMPLETED: { status: 409, when: 'Uploading again to a completed attachment' },
  SERVICE_LIVE_STREAM_STATE: {
    status: 409,
    when: 'A live-stream action its current status does not allow (the message names the status)',
  },
  SERVICE_ALREADY_HOST: { status: 409, when: 'Inviting an identity that is already a host of the live stream' },
  SERVICE_PAYLOAD_TOO_LARGE: { status: 413, when: 'Body over 1 MB' },
  SERVICE_UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'A body that is not JSON' },
  SERVICE_CONTENT_TYPE_MISMATCH: {
    status: 415,
    when: 'An attachment upload whose Content-Type is not the declared one',
  },
  SERVICE_RATE_LIMITED: {
    status: 429,
    when: 'Too many sign-ins, registrations or requests with one key lately; `Retry-After` says when to retry',
  },
  SERVICE_INTERNAL_ERROR: { status: 500, when: 'A bug, logged with its cause on the server' },
  SERVICE_UNAVAILABLE: { status: 503, when: 'The database is busy or the server is shutting down; retry' },
  SERVICE_FAULT_INJECTED: {
    status: 503,
    when: 'A fault injected into the environment for testing (`api.unavailable`) refused the call; `Retry-After` says when to retry',
  },
} as const satisfies Record<`SERVICE_${string}`, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes whose status is `status`: `notFound()` takes only a 404 code, and so on. */
export type ErrorCodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];
