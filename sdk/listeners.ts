/** The listeners of a client's events, by type: `on` answers a function that stops listening. */
export class Listeners<Events extends object> {
  private readonly byType = new Map<PropertyKey, Set<(event: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (event: Events[K]) => void): () => void {
    let set = this.byType.get(type);
    if (!set) {
      set = new Set();
      this.byType.set(type, set);
    }
    set.add(listener as (event: never) => void);
    return () => set.delete(listener as (event: never) => void);
  }

  /** Calls the listeners of `type` (a type decided at run time, e.g. from the server, is passed as a string). */
  emit(type: PropertyKey, event: unknown): void {
    for (const listener of this.byType.get(type) ?? []) (listener as (event: unknown) => void)(event);
  }
}
