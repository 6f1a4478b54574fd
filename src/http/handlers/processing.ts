// /sim/v1/processing: how long the platform's asynchronous steps last and when payments settle
// (domain/processing.ts); part of the sandbox, saved with it like its delivery chaos.

import { DEFAULT_PROCESSING, nextProcessing, type Processing } from '../../domain/processing.ts';
import { ok, type SandboxHandler } from '../handler.ts';

export const processingHandlers: Record<string, SandboxHandler> = {
  getProcessing: ({ sandbox }) => ok(sandbox.processing ?? DEFAULT_PROCESSING),

  replaceProcessing: ({ sandbox, body, ctx }) => {
    sandbox.processing = nextProcessing(sandbox.processing ?? DEFAULT_PROCESSING, body as Partial<Processing>, ctx.clock.now());
    return ok(sandbox.processing);
  },
};
