/** The most participants a room takes: rooms are a peer-to-peer mesh (and the CLI checks its flag against it). */
export const MAX_ROOM_PARTICIPANTS = 100;
