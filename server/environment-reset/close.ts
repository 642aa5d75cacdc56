/**
 * How the realtime and signaling sockets of an environment being reset are closed: 4000 plus HTTP's 205 (Reset
 * Content), as the sockets' other 4xxx codes are 4000 plus an HTTP status, and this reason.
 */
export const CLOSE_ENVIRONMENT_RESET = 4205;
export const ENVIRONMENT_RESET_REASON = 'environment reset';
