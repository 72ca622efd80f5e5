export * from './topics.js';
export * from './payloads.js';
export * from './tunnels.js';
