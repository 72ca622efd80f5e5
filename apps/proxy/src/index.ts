export { startProxy, ProxyStartError, type ProxyOptions, type RunningProxy } from './proxy.js';
export { generateHostKey, publicHostKey } from './host-key.js';
export type { ProxyLog } from './log.js';
export { SSH_SIGN_IN_MS, SSH_UNAUTHENTICATED_PER_ADDRESS } from './ssh-sign-in-deadlines.js';
export { RevocationWatch } from './revocation-watch.js';
