/**
 * The one error every SDK call throws. For an answer of the server, `status`, `code`, `message` and
 * `requestId` are those of its `{code, message, requestId}` body (quote the request id when
 * reporting a problem). When no usable answer arrived, `code` says why and `requestId` is null:
 * - `CLIENT_NETWORK_ERROR` (status 0): the server could not be reached; `cause` has the reason;
 * - `CLIENT_UNEXPECTED_RESPONSE`: an answer that is not the API's JSON (e.g. from a proxy).
 */
export class SwitchboardError extends Error {
  override readonly name = 'SwitchboardError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const NETWORK_ERROR = 'CLIENT_NETWORK_ERROR';
export const UNEXPECTED_RESPONSE = 'CLIENT_UNEXPECTED_RESPONSE';
