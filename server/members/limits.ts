/** How long an invitation may stay valid: 30 days (the CLI checks its flag against the same bound). */
export const MAX_INVITATION_HOURS = 30 * 24;
