export * from './errors.js';
export * from './auth.js';
export * from './forms/messages.js';
