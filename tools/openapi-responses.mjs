#!/usr/bin/env node
// Checks every answer the integration tests received (logged by the apps when
// OPENAPI_RESPONSE_LOG_DIR is set: libs/http response-log.ts) against the published document of
// the app that gave it (docs/openapi/*.json, matched by title): the status must be documented for
// the operation, and a JSON body must validate (ajv) against the schema documented for that status
// and content type. Prints one line per distinct mismatch and exits 1 when there is any.
// Usage: node tools/openapi-responses.mjs <log dir> [--examples N]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The OpenAPI 3.0 schema keywords that are not JSON Schema: annotations only. */
const OPENAPI_ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator'];

export function loadDocuments(dir = path.join(root, 'docs/openapi')) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ file: `docs/openapi/${name}`, document: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) }));
}

/** `/api/v1/my/integrations/:id` -> `/api/v1/my/integrations/{id}`. */
export function templateOf(route) {
  return route.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
}

export function createChecker(documents) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  ajv.addVocabulary(OPENAPI_ANNOTATIONS);
  const byTitle = new Map();
  documents.forEach(({ file, document }, index) => {
    const id = `doc${index}`;
    ajv.addSchema({ $id: id, components: document.components ?? {} });
    byTitle.set(document.info.title, { file, document, id });
  });
  const compiled = new Map();
  const rebase = (node, id) => {
    if (Array.isArray(node)) return node.map((item) => rebase(item, id));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${id}${value}` : rebase(value, id)]));
  };
  const validatorOf = (key, schema, id) => {
    if (!compiled.has(key)) compiled.set(key, ajv.compile(rebase(schema, id)));
    return compiled.get(key);
  };

  /** undefined: nothing to check (not a published app, no route, a path the document leaves out); else { ok, problem }. */
  return function check(entry) {
    const published = byTitle.get(entry.document);
    if (!published || entry.route === null) return undefined;
    const template = templateOf(entry.route);
    const item = published.document.paths[template];
    if (!item) return undefined;
    const method = entry.method.toLowerCase();
    const operation = item[method];
    const where = `${published.file} ${entry.method} ${template} ${entry.status}`;
    if (!operation) return { ok: false, where, problem: 'the method is not documented for this path' };
    const status = String(entry.status);
    const response = operation.responses?.[status] ?? operation.responses?.[`${status[0]}XX`] ?? operation.responses?.default;
    if (!response) return { ok: false, where, problem: `status ${status} is not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})` };
    if (!response.content || entry.body === '' || entry.truncated) return { ok: true };
    const mediaType = (entry.contentType ?? '').split(';')[0].trim().toLowerCase();
    const media = response.content[mediaType];
    if (!media) return { ok: false, where, problem: `content type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(response.content).join(', ')})` };
    if (!media.schema || !/json/.test(mediaType)) return { ok: true };
    let body;
    try {
      body = JSON.parse(entry.body);
    } catch {
      return { ok: false, where, problem: `the ${mediaType} body is not JSON` };
    }
    const validate = validatorOf(`${where}|${mediaType}`, media.schema, published.id);
    if (validate(body)) return { ok: true };
    const errors = validate.errors.slice(0, 3).map((error) => `${error.instancePath || '/'} ${error.message}${error.params?.allowedValues ? ` (${error.params.allowedValues.join(', ')})` : ''}`);
    return { ok: false, where, problem: `body does not match the schema: ${errors.join('; ')}` };
  };
}

export function checkLog(dir, documents = loadDocuments()) {
  const check = createChecker(documents);
  const failures = new Map();
  let checked = 0;
  let passed = 0;
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.ndjson'))) {
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      const verdict = check(JSON.parse(line));
      if (!verdict) continue;
      checked += 1;
      if (verdict.ok) {
        passed += 1;
        continue;
      }
      const key = `${verdict.where}: ${verdict.problem}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
  }
  return { checked, passed, failures };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node tools/openapi-responses.mjs <log dir>');
    process.exit(2);
  }
  const { checked, passed, failures } = checkLog(dir);
  for (const [key, count] of failures) console.log(`openapi: ${key} (${count}x)`);
  console.log(`openapi responses: ${checked} checked against docs/openapi, ${passed} matched, ${checked - passed} did not (${failures.size} distinct)`);
  process.exit(failures.size > 0 ? 1 : 0);
}
