import { z } from 'zod';
import { euCountryCodes } from '../countries.js';
import { messages, requiredText } from './messages.js';

export const organizationTypes = ['PERSONAL', 'COMPANY'] as const;
export type OrganizationType = (typeof organizationTypes)[number];
export const organizationRoles = ['CREATOR', 'ADMIN', 'USER'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];
/** Roles that can be given to a new member; CREATOR only comes from creating the organization. */
export const memberRoles = ['USER', 'ADMIN'] as const;
export type MemberRole = (typeof memberRoles)[number];
export const domainStatuses = ['PENDING', 'ACTIVE', 'FAILED'] as const;
export type DomainStatus = (typeof domainStatuses)[number];

/** Field limits; the SPEC gives none for organizations, these keep rows and invoices sane. */
export const organizationLimits = { name: 128, address: 255, telephone: 32, email: 255, vat: 32, domain: 253 } as const;

const optional = (label: string, max: number, pattern?: RegExp) => {
  const s = z.string({ error: messages.pattern(label) }).trim().max(max, messages.maxLength(label, max));
  // Empty means 'not given'; the pattern applies only to a value.
  const checked = pattern ? s.refine((v) => !v || pattern.test(v), messages.pattern(label)) : s;
  return checked
    .nullish()
    .transform((v) => (v ? v : null));
};

const email = (label: string) =>
  requiredText(label, organizationLimits.email)
    .pipe(z.email({ error: messages.email(label) }))
    .transform((v) => v.toLowerCase());

/** Digits, spaces and the usual separators; an international prefix is recommended by the help text. */
export const telephonePattern = /^\+?[0-9][0-9 ()./-]*$/;
/** A DNS host name: at least two labels of letters, digits and inner hyphens, 63 characters each. */
export const hostNamePattern = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The organization form's field labels, in form order: its messages, its page and its Summary say them. */
export const organizationLabels = {
  type: 'Type',
  name: 'Name',
  country: 'Country',
  address: 'Address',
  telephone: 'Telephone',
  email: 'Email',
  vat: 'VAT',
} as const;
type OrganizationField = keyof typeof organizationLabels;

/** SPEC §5 Organization: the same rules in the form and on the API. */
export const organizationFormSchema = z
  .object({
    type: z.enum(organizationTypes, { error: messages.required(organizationLabels.type) }).default('PERSONAL'),
    name: requiredText(organizationLabels.name, organizationLimits.name),
    country: z.enum(euCountryCodes, { error: messages.required(organizationLabels.country) }),
    address: requiredText(organizationLabels.address, organizationLimits.address),
    telephone: optional(organizationLabels.telephone, organizationLimits.telephone, telephonePattern),
    email: email(organizationLabels.email),
    vat: optional(organizationLabels.vat, organizationLimits.vat),
  })
  // VAT only means something for companies; a PERSONAL organization never keeps one.
  .transform((o) => ({ ...o, vat: o.type === 'COMPANY' ? o.vat : null }));
export type OrganizationFormInput = z.input<typeof organizationFormSchema>;
export type OrganizationForm = z.output<typeof organizationFormSchema>;


/**
 * The labels of the fields a saved organization lacks by the form's own rules, in form order. The
 * PERSONAL organization made at a user's first sign-in knows only a name and an email, so its
 * Summary can say what is still to be filled in before an invoice can be made.
 */
export function missingOrganizationDetails(org: Record<OrganizationField, unknown>): string[] {
  const parsed = organizationFormSchema.safeParse(org);
  if (parsed.success) return [];
  const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]));
  return (Object.keys(organizationLabels) as OrganizationField[]).filter((field) => fields.has(field)).map((field) => organizationLabels[field]);
}

/** SPEC §5 Organization user. */
export const organizationUserFormSchema = z.object({
  email: email('Email'),
  role: z.enum(memberRoles, { error: messages.required('Role') }).default('USER'),
});
export type OrganizationUserFormInput = z.input<typeof organizationUserFormSchema>;
export type OrganizationUserForm = z.output<typeof organizationUserFormSchema>;

/** SPEC §5 Domain: required, a valid host name (stored lowercase, without a trailing dot). */
export const organizationDomainFormSchema = z.object({
  domain: requiredText('Domain', organizationLimits.domain)
    .transform((v) => v.toLowerCase().replace(/\.$/, ''))
    .pipe(z.string().regex(hostNamePattern, messages.pattern('Domain'))),
});
export type OrganizationDomainFormInput = z.input<typeof organizationDomainFormSchema>;
export type OrganizationDomainForm = z.output<typeof organizationDomainFormSchema>;
