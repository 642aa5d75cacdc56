/** The largest attachment accepted: 25 MiB, declared at create and enforced while the bytes stream in. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** How long an upload URL works (to start the PUT). */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
/** How long a download URL works. */
export const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** An attachment not completed this long after it was created is deleted, row and file. */
export const INCOMPLETE_ATTACHMENT_TTL_MS = 60 * 60 * 1000;
/** How often the cleanup job looks for abandoned uploads (what is abandoned is decided by the clock). */
export const CLEANUP_INTERVAL_MS = 60 * 1000;
/** Attachments one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
