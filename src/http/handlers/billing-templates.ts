// /api/v1/billing_templates/: create, list, read, replace, patch, delete. The rules live in
// domain/billing-templates.ts; a rejected request throws before anything is stored. Every answer
// carries the platform's invoice_* names beside the spec's (present.ts).

import { createTemplate, updateTemplate, type TemplateScope } from '../../domain/billing-templates.ts';
import type { Sandbox } from '../../store/store.ts';
import { created, find, noContent, ok, type SandboxHandler } from '../handler.ts';
import { presentTemplate } from '../present.ts';
import { paginate } from '../pagination.ts';

export const scopeOf = (sandbox: Sandbox): TemplateScope => ({
  brandIds: sandbox.brands.map((brand) => brand.id),
  companyId: sandbox.companyId,
});

const update =
  (mode: 'put' | 'patch'): SandboxHandler =>
  ({ sandbox, params, body, ctx }) => {
    const template = updateTemplate(mode, find(sandbox.templates, params.id), body, scopeOf(sandbox), ctx);
    sandbox.templates.set(template.id, template);
    return ok(presentTemplate(template));
  };

export const billingTemplateHandlers: Record<string, SandboxHandler> = {
  createBillingTemplate: ({ sandbox, body, ctx }) => {
    const template = createTemplate(body, scopeOf(sandbox), ctx);
    sandbox.templates.set(template.id, template);
    return created(presentTemplate(template));
  },

  listBillingTemplates: ({ sandbox, query, url }) => {
    const page = paginate(sandbox.templates.inOrder(), query, url);
    return ok({ ...page, results: page.results.map(presentTemplate) });
  },

  getBillingTemplate: ({ sandbox, params }) => ok(presentTemplate(find(sandbox.templates, params.id))),

  updateBillingTemplate: update('put'),

  patchBillingTemplate: update('patch'),

  deleteBillingTemplate: ({ sandbox, params }) => {
    const template = find(sandbox.templates, params.id);
    // Its subscribers go with it (their queued billings find no subscriber and do nothing);
    // the purchases it generated stay, with their billing_template_id.
    for (const subscriber of [...sandbox.subscribers.values()]) {
      if (subscriber.billing_template_id !== template.id) continue;
      sandbox.subscribers.delete(subscriber.id);
      sandbox.schedules.delete(subscriber.id);
    }
    sandbox.templates.delete(template.id);
    return noContent();
  },
};
