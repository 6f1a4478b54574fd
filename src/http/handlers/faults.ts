// /sim/v1/faults: create, list and delete the caller's sandbox's faults (the registry and the hook
// that applies them are in ../faults.ts). The handlers read the sandbox's id only: a fault is no
// part of the sandbox, so these requests change nothing in it.

import { notFound } from '../../domain/errors.ts';
import type { Fault, FaultInput, FaultRegistry } from '../faults.ts';
import { created, noContent, ok, type SandboxHandler } from '../handler.ts';
import { paginate } from '../pagination.ts';

/** A fault as the API answers it (`Fault` in openapi.yaml). */
function present(fault: Fault) {
  return {
    id: fault.id,
    operation_id: fault.operationId,
    status: fault.status,
    times: fault.remaining,
    latency_ms: fault.latencyMs,
    probability: fault.probability,
    fired: fault.fired,
  };
}

export function faultHandlers(registry: FaultRegistry): Record<string, SandboxHandler> {
  return {
    createFault: ({ sandbox, body }) => created(present(registry.create(sandbox.id, body as unknown as FaultInput))),

    listFaults: ({ sandbox, query, url }) => {
      const page = paginate(registry.list(sandbox.id), query, url);
      return ok({ ...page, results: page.results.map(present) });
    },

    deleteFaults: ({ sandbox }) => {
      registry.clear(sandbox.id);
      return noContent();
    },

    deleteFault: ({ sandbox, params }) => {
      if (!registry.remove(sandbox.id, params.id!)) throw notFound();
      return noContent();
    },
  };
}
