// The spec and DESIGN.md sections that checks cite, named once so that every check citing the
// same rule cites it in the same words.

export const ERRORS = 'DESIGN.md §3 Errors';
export const SUBSCRIBER_STATES = 'Spec, States and transitions: BillingTemplateClient status';
export const SUBSCRIBER_TABLE = 'Spec, BillingTemplateClient (request body shape)';
export const TEMPLATE_TABLE = 'Spec, BillingTemplate table';
export const TEMPLATE_SHAPE = 'Spec, BillingTemplate (request body shape)';
export const SUBSCRIPTION_RULES = 'Spec, Rules on the subscription fields';
export const READ_ONLY_CODE = 'DESIGN.md §4.10: "Sending a read-only field with a value different from the stored one → 400 with code read_only"';
