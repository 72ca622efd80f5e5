import { afterAll, beforeAll } from 'vitest';
import { startFakeKeycloak, type FakeKeycloak } from './fake-keycloak.js';
import { startTestConsole, type TestConsole } from './test-console.js';

/** A suite's fake Keycloak and a console that takes its tokens (`env` over OIDC_ISSUER), started before its tests, stopped after. */
export interface KeycloakConsole {
  readonly kc: FakeKeycloak;
  readonly console: TestConsole;
}

export function useKeycloakConsole(env: Record<string, string> = {}): KeycloakConsole {
  let kc: FakeKeycloak;
  let c: TestConsole;
  beforeAll(async () => {
    kc = await startFakeKeycloak();
    c = await startTestConsole({ OIDC_ISSUER: kc.issuer, ...env });
  });
  afterAll(async () => {
    await c?.close();
    await kc?.close();
  });
  return {
    get kc() {
      return kc;
    },
    get console() {
      return c;
    },
  };
}
