/** A Switchboard id: a short lower-case prefix, `_`, then 16 or more letters and digits (`conv_01J…`, `msg_…`). */
const ID = /\b[a-z]{2,4}_[0-9A-Za-z]{16,40}\b/g;
const WHOLE_ID = /^[a-z]{2,4}_[0-9A-Za-z]{16,40}$/;

/** Base64url JSON, as cursors are written (`eyJ…`: `{"`): ids inside it are mapped and masked too. */
const ENCODED_JSON = /\beyJ[A-Za-z0-9_-]{4,}={0,2}/g;

/** `text` with `change` applied inside each base64url JSON it holds (re-encoded), and to the rest. */
function throughEncoded(text: string, change: (plain: string) => string): string {
  return change(
    text.replace(ENCODED_JSON, (encoded) => {
      const plain = Buffer.from(encoded, 'base64url').toString('utf8');
      if (!plain.startsWith('{"')) return encoded;
      return Buffer.from(change(plain), 'utf8').toString('base64url');
    }),
  );
}

export const isId = (value: unknown): value is string => typeof value === 'string' && WHOLE_ID.test(value);
const prefixOf = (id: string) => id.slice(0, id.indexOf('_'));

/**
 * The recorded ids and the ones the replay got in their place (rooms, conversations, messages, …), learnt by
 * reading a recorded answer beside the replayed one; applied to what the replay sends next (paths, bodies, frames).
 */
export class IdMap {
  private readonly ids = new Map<string, string>();

  get size(): number {
    return this.ids.size;
  }

  /** Learns from two values of the same shape: where the recorded one has an id, the replayed one has its new id. */
  learn(recorded: unknown, replayed: unknown): void {
    if (isId(recorded)) {
      if (
        isId(replayed) &&
        recorded !== replayed &&
        prefixOf(recorded) === prefixOf(replayed) &&
        !this.ids.has(recorded)
      )
        this.ids.set(recorded, replayed);
      return;
    }
    if (Array.isArray(recorded)) {
      if (!Array.isArray(replayed)) return;
      const n = Math.min(recorded.length, replayed.length);
      for (let i = 0; i < n; i++) this.learn(recorded[i], replayed[i]);
      return;
    }
    if (recorded === null || typeof recorded !== 'object' || replayed === null || typeof replayed !== 'object') return;
    for (const [name, value] of Object.entries(recorded))
      this.learn(value, (replayed as Record<string, unknown>)[name]);
  }

  /** The id the replay uses for a recorded one (itself when none was learnt). */
  get(id: string): string {
    return this.ids.get(id) ?? id;
  }

  /** `text` with every recorded id that has a new one replaced by it. */
  apply(text: string): string {
    if (this.ids.size === 0) return text;
    return throughEncoded(text, (plain) => plain.replace(ID, (id) => this.ids.get(id) ?? id));
  }
}

/** `text` with every id written `<id>`: what a comparison sets aside. */
export const maskIds = (text: string) => throughEncoded(text, (plain) => plain.replace(ID, '<id>'));
