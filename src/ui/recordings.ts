// The dashboard's "Load a recording": `POST /ui/recordings` with a HAR file (`billing-sim proxy
// --record`) as its JSON body replays it (src/replay/replay.ts) into a new sandbox of this server,
// and answers that sandbox's token with what the replay found, so that a QA tester looks at the
// objects the recording made, at their end state, in the dashboard.
//
// The replay talks to this very server over HTTP, as `billing-sim replay --origin` would: at the
// address the request came in on (the socket's own), which is reachable from inside the process even
// when the page was opened through a container's port mapping or a name only the browser knows.
// It asks for nothing POST /sim/v1/sandboxes does not give to anyone: no token is needed.

import express, { type Request, type Response, type Router } from 'express';
import { readHar, RecordingError } from '../recording/har-file.ts';
import { replayRecording } from '../replay/replay.ts';

export const RECORDINGS_PATH = '/ui/recordings';
/**
 * A day of a team's traffic through the proxy is a few MiB of JSON; a recording larger than this is
 * replayed with `billing-sim replay FILE --origin URL`, which reads it from disk.
 */
export const MAX_RECORDING_UPLOAD = 16 * 1024 * 1024;
/** Differences listed in the answer; the count says how many there were in all. */
const LISTED_DIFFERENCES = 20;

function refuse(res: Response, status: number, code: string, message: string): void {
  res.locals.errorSummary = `__all__: ${code}`;
  res.status(status).json({ __all__: [{ message, code }] });
}

/** The origin of the socket the request came in on: `http://127.0.0.1:4010`, `http://[::1]:4010`. */
function ownOrigin(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

export function recordingsRouter(): Router {
  const router = express.Router();
  const body = express.text({ type: () => true, limit: MAX_RECORDING_UPLOAD });
  router.post(RECORDINGS_PATH, body, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    // A simple form post (text/plain) could be sent by any page without asking: only JSON is taken.
    if (!req.is('application/json')) return refuse(res, 415, 'unsupported_media_type', 'Send the recording as application/json (a .har file).');
    let har;
    try {
      har = readHar(String(req.body ?? '')).har;
    } catch (error) {
      if (!(error instanceof RecordingError)) throw error;
      return refuse(res, 400, 'invalid', `${error.message}: choose a .har file written by billing-sim proxy --record or a browser.`);
    }
    const lines: string[] = [];
    const result = await replayRecording({ har, origin: ownOrigin(req), log: (line) => lines.push(line) });
    res.status(201).json({
      sandbox_id: result.sandbox.id,
      token: result.sandbox.token,
      exchanges: result.exchanges,
      replayed: result.replayed,
      skipped: result.skipped.length,
      drift: { count: result.drift.length, listed: result.drift.slice(0, LISTED_DIFFERENCES) },
      unknowable: { count: result.unknowable.length, listed: result.unknowable.slice(0, LISTED_DIFFERENCES) },
    });
  });
  return router;
}
