export * from './topics.js';
export * from './payloads.js';
export * from './request-envelope.js';
export * from './tunnels.js';
