// What the simulator cannot know: values a recording holds that belong to the account it was made
// with, not to the platform's behaviour. A difference there is listed apart from drift, with the
// reason below, so that a recording made against the real platform can still replay with no drift.
//
// One table, each row with its reason. Widen it only with a reason of this kind (the account's
// own data, or something the platform makes from its own state): a row added to quiet a
// difference the simulator could have got right would hide drift.

export interface UnknowableRow {
  /** The row applies to every difference of this operation (an operationId of openapi.yaml). */
  operation?: string;
  /** The row applies where the difference's path passes through a key of this name, at any depth. */
  key?: string;
  why: string;
  /**
   * Its values differ on every run, as ids do: only a difference of shape (a key missing, another
   * JSON type) is listed. Without it, differing values are listed too: they show the team what of
   * its account the sandbox does not have (its company's name, its payment methods).
   */
  shapeOnly?: true;
}

export const UNKNOWABLE: readonly UnknowableRow[] = [
  { key: 'issuer_details', why: "the account's company details (legal name, address, bank accounts), as the platform keeps them" },
  { key: 'brand_id', why: "the account's brand: a sandbox has a brand of its own" },
  { key: 'company_id', why: "the account's company: a sandbox has a company of its own" },
  { key: 'company_uid', why: "the account's company: a sandbox has a company of its own" },
  { key: 'user_id', why: 'the person of the account who made the object on the platform' },
  { key: 'reference_generated', why: "a reference number the platform draws from the account's own counter", shapeOnly: true },
  { key: 'platform', why: 'what made the object on the platform (its API, a plugin, its dashboard)' },
  { key: 'product', why: 'which of the platform products the account made the object with' },
  { key: 'creator_agent', why: 'what made the object on the platform (its API, a plugin, its dashboard)' },
  { operation: 'listPaymentMethods', why: "the account's payment methods, as the platform enabled them for it" },
  { operation: 'getPublicKey', why: "the account's key material" },
  {
    key: 'direct_post_url',
    why: 'whether the account has Direct Post: the platform enables it per account and answers null without it (every published object); the simulator offers it on every purchase',
    shapeOnly: true,
  },
];

/**
 * billing-sim's own documented differences from the platform's published objects (docs/fidelity.md):
 * keys it answers and the platform's objects lack. Found in a replay they are listed apart, with their
 * page, and do not count as drift: every replay of a real account would otherwise fail on them. Only
 * the kind of difference named (`extra`: only in the replay) is covered; another value there is drift.
 */
export interface DocumentedRow {
  key: string;
  kinds: readonly string[];
  why: string;
}

export const DOCUMENTED: readonly DocumentedRow[] = [
  {
    key: 'description',
    kinds: ['extra'],
    why: "docs/fidelity.md, Objects: the Go SDK's client.description, purchase.description and an attempt error's description, answered by billing-sim",
  },
  { key: 'service_type', kinds: ['extra'], why: "docs/fidelity.md, Simulator-only: the spec's service type on a purchase, which no public model shows" },
];

/** Why a difference is one of billing-sim's documented ones, or undefined. */
export function documentedWhy(kind: string, path: string): string | undefined {
  const keys = path.split(/\.|\[\]|\["|"\]/).filter((key) => key !== '');
  return DOCUMENTED.find((row) => row.kinds.includes(kind) && keys.includes(row.key))?.why;
}

function rowOf(operation: string, path: string): UnknowableRow | undefined {
  const keys = new Set(path.split(/\.|\[\]|\["|"\]/).filter((key) => key !== ''));
  return UNKNOWABLE.find((row) => (row.operation === undefined || row.operation === operation) && (row.key === undefined || keys.has(row.key)));
}

/** Why a difference of `operation` at `path` is one the simulator cannot know, or undefined (it is drift). */
export const unknowableWhy = (operation: string, path: string): string | undefined => rowOf(operation, path)?.why;

/** Whether the value at `path` is the account's, to be compared and listed apart when it differs. */
export const isAccountValue = (operation: string, path: string): boolean => {
  const row = rowOf(operation, path);
  return row !== undefined && row.shapeOnly !== true;
};

/** Why a recorded answer about an object the recording never saw made is not the simulator's to give. */
export const EXISTED_BEFORE = 'an object that existed before the recording began: the simulator has no such object';
