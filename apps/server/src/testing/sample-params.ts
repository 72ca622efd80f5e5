/**
 * A well-formed value for a path parameter of the API that names nothing: `{name}` filled in, so a
 * call passes validation and reaches its lookup (or its role check) without finding an object.
 */
export const sampleParam = (name: string) => (name === 'kind' ? 'installer' : name === 'version' ? '1.0.0' : '5d0f0c1e-0000-4000-8000-000000000000');

/** An OpenAPI path (`/api/device/{id}`) with every parameter filled by `sampleParam`. */
export const samplePath = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => sampleParam(name));
