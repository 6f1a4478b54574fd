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
];

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
