// Statement requests, /company_statements/. The spec shows none; the platform's API reference and
// its Gravity Forms and Formidable plugins do (docs/fidelity.md#company-statements): the plugins read
// `company_uid` of the first statement listed, or of one they create with {format: csv, timezone:
// UTC} when the list is empty, and verify each callback with the key stored under the callback's
// `company_id`. That rule is the plugins' code, so the check is normative. Like the plugins, the
// check creates a statement only in an account that has none: the API deletes none, and a real
// target then generates one file for it.

import { describe, expect } from 'vitest';
import { check } from '../lib/check.ts';
import { expectStatus, expectSuccess } from '../lib/primitives.ts';
import { createPurchase, mainClient } from '../lib/scenario.ts';

const FIDELITY = 'docs/fidelity.md#company-statements';
const COMPANY_UID = `${FIDELITY}: "So a statement's company_uid is the company_id of the account's purchases."; openapi.yaml#listCompanyStatements; openapi.yaml#createCompanyStatement`;

interface Statement {
  company_uid: string;
}

describe('company statements', () => {
  check(
    {
      id: 'CS-COMPANY-UID',
      title: "a statement's company_uid (the first listed, else that of one made with {format: csv, timezone: UTC}) is the company_id of the account's purchases",
      cites: COMPANY_UID,
    },
    async ({ api }) => {
      const { account, client } = await mainClient(api);
      const purchase = (await createPurchase(account, client.id)) as unknown as { company_id: string };
      const listed = expectStatus(await api.get('/company_statements/'), 200, 'list company statements').results as Statement[];
      let companyUid = listed[0]?.company_uid;
      if (listed.length === 0) {
        companyUid = (expectSuccess(await api.post('/company_statements/', { format: 'csv', timezone: 'UTC' }), 'schedule a statement') as unknown as Statement).company_uid;
        const after = expectStatus(await api.get('/company_statements/'), 200, 'list company statements').results as Statement[];
        expect(after[0]?.company_uid, 'the statement made is listed, with the same company_uid').toBe(companyUid);
      }
      expect(companyUid, "company_uid is the purchases' company_id").toBe(purchase.company_id);
    },
  );
});
