/** The validation message formats of SPEC §5, shared by the API and the SPA so both say the same. */
export const messages = {
  required: (label: string) => `${label} is required.`,
  min: (label: string, min: number) => `${label} must be at least ${min}.`,
  max: (label: string, max: number) => `${label} must be less than ${max}.`,
  maxLength: (label: string, n: number) => `${label} must be less than ${n} characters.`,
  email: (label: string) => `${label} is not a valid email address.`,
  pattern: (label: string) => `${label} is not a valid, it contain invalid characters.`,
};
