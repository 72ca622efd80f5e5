/**
 * The error statuses a route answers beyond those its shape implies (the OpenAPI document derives
 * 400 from inputs, 401 and 403 from its security, 404 from path parameters, 413 and 415 from a
 * method that carries a body).
 * Declared in the route tables, next to the route, so the document lists them as they apply.
 */
export type DeclaredErrorStatus = 409 | 410 | 411 | 429 | 502 | 503 | 504;

/**
 * A route that asks a device and waits for its answer: the device is offline (409), refused or
 * answered nonsense (502), its message server is not reachable (503), or it did not answer in time (504).
 */
export const DEVICE_CALL_ERRORS = [409, 502, 503, 504] as const satisfies readonly DeclaredErrorStatus[];

/** A one-time link that was used already or has expired. */
export const LINK_GONE_ERRORS = [410] as const satisfies readonly DeclaredErrorStatus[];
