import { OPERATION_METHODS } from '../plugins/openapi-document.js';

export interface DocumentOperation {
  /** `METHOD /path`, as the route tables and the tests name an operation. */
  key: string;
  method: string;
  path: string;
  op: Record<string, any>;
}

/** Every operation of an OpenAPI document, flat, with its method upper-case. */
export function documentOperations(doc: { paths: Record<string, Record<string, unknown>> }): DocumentOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => (OPERATION_METHODS as readonly string[]).includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op: op as Record<string, any> })),
  );
}
