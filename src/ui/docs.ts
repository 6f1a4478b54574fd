// The API reference at /docs: Swagger UI, served by the simulator itself (no CDN), reading
// openapi.yaml as JSON at /docs/openapi.json. Its two files are copied from swagger-ui-dist into
// dist/ at build (scripts/build.js), so the package does not depend on swagger-ui-dist (see there);
// run from the sources, they come from node_modules. The document's copy has as `servers` the origin
// the browser called, so "Try it out" reaches this very simulator whatever its host and port (the
// file itself says http://127.0.0.1:4010).

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadSpec } from '../contract/spec.ts';
import { html, page } from './html.ts';

const BUILT_SWAGGER_UI = fileURLToPath(new URL('./swagger-ui/', import.meta.url));
const SWAGGER_UI_DIR = existsSync(BUILT_SWAGGER_UI) ? BUILT_SWAGGER_UI : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export function docsPage(): string {
  return page(
    'billing-sim · API reference',
    html`<main><h1 class="visually-hidden">billing-sim API reference</h1><div id="swagger-ui"></div></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/ui.js"></script>`,
    html`<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>body { max-width: none; padding: 0; background: #fff; } .visually-hidden { position: absolute; left: -10000px; }</style>`,
  );
}

/**
 * validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io. The
 * authorization pasted in "Authorize" is kept across reloads, as a tester expects. showExtensions:
 * a body field's default is `x-default` in openapi.yaml (its header says why), shown beside the field.
 */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/docs/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  persistAuthorization: true,
  tryItOutEnabled: false,
  displayOperationId: true,
  showExtensions: true,
});
`;

export function docsRouter(): Router {
  const router = express.Router();
  // Parsed on first use: most servers (each test's) never open /docs.
  let spec: OpenAPIV3_1.Document | undefined;

  router.get('/docs', (_req, res) => void res.type('html').send(docsPage()));
  router.get('/docs/ui.js', (_req, res) => void res.type('text/javascript').send(INIT));
  router.get('/docs/openapi.json', (req, res) => {
    spec ??= loadSpec();
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    // Swagger UI warns in red on any jsonSchemaDialect but its own default; the file names draft
    // 2020-12 for Prism (DESIGN.md §2), which is what OpenAPI 3.1's default dialect builds on.
    const { jsonSchemaDialect: _dialect, ...shown } = spec;
    res.json({ ...shown, servers: [{ url: origin, description: 'this simulator' }] });
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false }));
  return router;
}
