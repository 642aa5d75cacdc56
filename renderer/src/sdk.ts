// The dashboard reaches the server only through the SDK, loaded from source (it is browser-safe).
export * from '../../sdk/index.js';
