/**
 * How realtime and signaling sockets dropped by an injected fault (`POST /v1/projects/{id}/environment/sockets/drop`)
 * close: 4206, the neighbour of the environment reset's 4205, and this reason. Nothing is lost on the server: a client
 * reconnects with the same token and catches up (the SDK's ChatClient does, as after any close but 4400 and 4401).
 */
export const CLOSE_FAULT_INJECTED = 4206;
export const FAULT_INJECTED_REASON = 'fault injected';
