export { startProxy, ProxyStartError, type ProxyOptions, type RunningProxy } from './proxy.js';
export { generateHostKey, publicHostKey } from './host-key.js';
export type { ProxyLog } from './log.js';
