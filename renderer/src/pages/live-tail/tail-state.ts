import { useCallback, useReducer, useRef } from 'react';
import { useLiveEvents } from '../../api/live-events';
import type { LiveEvent } from '../../sdk';

/** The tail keeps the newest this many events (and, while paused, at most this many held back). */
export const TAIL_SIZE = 500;

export interface TailEntry {
  /** Arrival order on this page: the row's key. */
  seq: number;
  /** When the page received it (the tail shows it; `event.at` is when it happened on the server). */
  receivedAt: number;
  event: LiveEvent;
}

interface TailState {
  /** Newest first. */
  shown: TailEntry[];
  /** What arrived while paused, newest first: shown on resume. */
  held: TailEntry[];
  paused: boolean;
  /** Every event received since the page opened, filtered, held or cleared ones included. */
  received: number;
}

type Action = { type: 'event'; entry: TailEntry } | { type: 'pause' } | { type: 'resume' } | { type: 'clear' };

function reduce(state: TailState, action: Action): TailState {
  switch (action.type) {
    case 'event':
      return state.paused
        ? { ...state, held: [action.entry, ...state.held].slice(0, TAIL_SIZE), received: state.received + 1 }
        : { ...state, shown: [action.entry, ...state.shown].slice(0, TAIL_SIZE), received: state.received + 1 };
    case 'pause':
      return { ...state, paused: true };
    case 'resume':
      return { ...state, paused: false, held: [], shown: [...state.held, ...state.shown].slice(0, TAIL_SIZE) };
    case 'clear':
      return { ...state, shown: [], held: [] };
  }
}

/** The environment's live events as they arrive, newest first and bounded; pausing holds new ones back. */
export function useTail() {
  const [state, dispatch] = useReducer(reduce, { shown: [], held: [], paused: false, received: 0 });
  const seq = useRef(0);
  useLiveEvents((event) => dispatch({ type: 'event', entry: { seq: ++seq.current, receivedAt: Date.now(), event } }));
  return {
    ...state,
    pause: useCallback(() => dispatch({ type: 'pause' }), []),
    resume: useCallback(() => dispatch({ type: 'resume' }), []),
    clear: useCallback(() => dispatch({ type: 'clear' }), []),
  };
}
