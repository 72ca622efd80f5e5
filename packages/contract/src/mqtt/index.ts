export * from './topics.js';
export * from './payloads.js';
