// `billing-sim proxy --record FILE`: every exchange the proxy forwarded, appended to a HAR file
// (har-file.ts) in the order the exchanges completed, each with the proxy's findings (har-entry.ts),
// scrubbed (scrub.ts) before it is written.
//
// An exchange takes its place when it completes (reserve) and is written once its checks are done; the
// checks of two exchanges may end in either order, so an exchange whose checks end first waits for those
// before it. An entry is written a moment after its client has the answer: a kill -9 loses at most the
// exchanges still being checked, and leaves the file readable up to the last one written.

import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { HarFileWriter } from './har-file.ts';
import { toEntry, type Findings, type SeenExchange } from './har-entry.ts';
import { Scrubber } from './scrub.ts';

export type { Findings, SeenExchange } from './har-entry.ts';

export interface RecorderOptions {
  /** Where the recording goes (created 0600, replaced if it exists); relative to the current folder. */
  file: string;
  /** The proxy's origin: the start of each entry's `request.url`. */
  proxyOrigin: string;
  /** The server the proxy forwards to, named in the log's comment. */
  upstream: string;
  /** Keep e-mail addresses and phone numbers as they were. */
  keepPersonal?: boolean;
  /** The scrubber's salt; a fresh random one per recording unless a test fixes it. */
  salt?: Buffer;
  /** An exchange that could not be written (a full disk): told here, and the recording goes on without it. */
  onError?: (error: Error) => void;
}

/** Bytes of the per-recording salt of the e-mail and phone fakes: 128 bits, beyond guessing. */
const SALT_BYTES = 16;

interface Slot {
  seen: SeenExchange;
  findings?: Findings;
}

export class Recorder {
  /** The absolute path written to. */
  readonly path: string;
  private readonly writer: HarFileWriter;
  private readonly scrubber: Scrubber;
  private readonly proxyOrigin: string;
  private readonly onError: (error: Error) => void;
  /** Completed exchanges not yet written, in completion order. */
  private readonly queue: Slot[] = [];

  constructor(options: RecorderOptions) {
    this.path = resolve(options.file);
    mkdirSync(dirname(this.path), { recursive: true });
    const version = (createRequire(import.meta.url)('billing-sim/package.json') as { version: string }).version;
    const scrubbed = options.keepPersonal ? 'secrets scrubbed, e-mails and phones kept' : 'secrets scrubbed, e-mails and phones replaced by fakes';
    this.writer = new HarFileWriter(this.path, { name: 'billing-sim proxy', version }, `Recorded through billing-sim proxy in front of ${options.upstream}; ${scrubbed}.`);
    this.scrubber = new Scrubber(options.salt ?? randomBytes(SALT_BYTES), options.keepPersonal ?? false);
    this.proxyOrigin = options.proxyOrigin;
    this.onError = options.onError ?? (() => {});
  }

  /** Exchanges written so far. */
  get count(): number {
    return this.writer.count;
  }

  /**
   * Takes the place of an exchange that has just completed; the function returned writes it with its
   * findings (and every completed exchange after it whose findings are in).
   */
  reserve(seen: SeenExchange): (findings: Findings) => void {
    const slot: Slot = { seen };
    this.queue.push(slot);
    return (findings) => {
      slot.findings ??= findings;
      this.flush();
    };
  }

  /** Closes the file; call once every reserved exchange has been given its findings. */
  close(): void {
    this.flush();
    this.writer.close();
  }

  private flush(): void {
    let written = 0;
    while (written < this.queue.length && this.queue[written]!.findings) {
      const { seen, findings } = this.queue[written]!;
      written += 1;
      // Left out rather than retried: an exchange that cannot be written must not hold up those after it.
      try {
        this.writer.append(toEntry(seen, findings!, this.scrubber, this.proxyOrigin));
      } catch (error) {
        this.onError(error as Error);
      }
    }
    this.queue.splice(0, written);
  }
}
