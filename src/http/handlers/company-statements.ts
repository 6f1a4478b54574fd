// /api/v1/company_statements/: statement requests, kept per sandbox and never generated
// (domain/company-statements.ts). The Gravity Forms and Formidable plugins read `company_uid` here.

import { queryStringOf, scheduleStatement } from '../../domain/company-statements.ts';
import { created, find, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

export const companyStatementHandlers: Record<string, SandboxHandler> = {
  createCompanyStatement: ({ sandbox, body, query, ctx }) => {
    const statement = scheduleStatement(body, queryStringOf(query), { companyId: sandbox.companyId }, ctx);
    sandbox.statements.set(statement.id, statement);
    return created(statement);
  },

  listCompanyStatements: ({ sandbox, query, url }) => ok(paginate(sandbox.statements.inOrder(), query, url)),

  getCompanyStatement: ({ sandbox, params }) => ok(find(sandbox.statements, params.id)),
};
