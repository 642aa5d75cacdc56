/** What the key routes and the dashboard routes of live streams say alike in the OpenAPI document. */
export const tag = 'Live streams';
export const notFound = { SERVICE_LIVE_STREAM_NOT_FOUND: 'No such live stream in the environment.' };
export const stateConflict = { SERVICE_LIVE_STREAM_STATE: 'Not allowed in the stream’s current state.' };
