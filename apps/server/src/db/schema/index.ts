export * from './users.js';
export * from './idp.js';
export * from './organizations.js';
export * from './devices.js';
export * from './servers.js';
export * from './audit.js';
export * from './drive-scans.js';
export * from './transfers.js';
