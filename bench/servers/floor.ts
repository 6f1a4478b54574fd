// The floor of the throughput benchmark: the least an Express 5 server can do for the same answers.
// `express.json()` and one `app.use` handler that looks the answer up by method and path and
// serialises it anew for every request, so it carries the same JSON work as the simulator (parse
// the body, stringify the answer) and nothing else: no routing, validation, auth or state.
// Reads its answers from stdin, a JSON array of { method, path, status, body } captured from the
// simulator before the load; announces itself as the simulator does, `API base URL …/api/v1/`.

import express from 'express';
import { text } from 'node:stream/consumers';

interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

const answers = new Map<string, Answer>();
for (const answer of JSON.parse(await text(process.stdin)) as Answer[]) answers.set(`${answer.method} ${answer.path}`, answer);

const app = express();
// The simulator sends neither an ETag nor X-Powered-By: without them the floor does the same work, not
// more (a weak ETag is a SHA-1 of every answer, a fair part of the cost of a 1.8 kB list).
app.set('etag', false);
app.disable('x-powered-by');
app.use(express.json());
app.use((req, res) => {
  const answer = answers.get(`${req.method} ${req.path}`);
  if (answer) res.status(answer.status).json(answer.body);
  else res.status(404).json({ __all__: [{ message: 'Not found.', code: 'not_found' }] });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`API base URL http://127.0.0.1:${address.port}/api/v1/`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
