/**
 * Kubernetes helpers of the deployment tests: rendering a kustomization with `kubectl kustomize`,
 * validating every object against the Kubernetes OpenAPI schemas (kubernetes-models), label
 * selectors, and the path matching of an Ingress.
 */
import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { workspacePath } from './deployables';

/** A rendered object; the tests read it loosely and rely on validate() for its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [field: string]: any };

export function parseYamlDocuments(source: string): K8sObject[] {
  return parseAllDocuments(source)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(document.errors.map((error) => error.message).join('\n'));
      return document.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

/** `kubectl kustomize <dir>` (kubectl >= 1.27 embeds kustomize v5; see k8s/README.md). */
export function renderKustomization(relativeDir: string): K8sObject[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', workspacePath(relativeDir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const detail = (error as { stderr?: string; code?: string }).code === 'ENOENT' ? 'kubectl is not installed (k8s/README.md, "Testing")' : String((error as { stderr?: string }).stderr ?? error);
    throw new Error(`kubectl kustomize ${relativeDir} failed: ${detail}`);
  }
  return parseYamlDocuments(output);
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

/** Schema errors of one object ([] when valid); an apiVersion/kind without a model is an error too. */
export function schemaErrors(object: K8sObject): string[] {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) return [`no schema known for ${object.apiVersion} ${object.kind} (add its model to tools/deploy/manifests.ts)`];
  try {
    new Model(object as never).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

export function named<T extends K8sObject = K8sObject>(objects: K8sObject[], kind: string, name: string): T | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name) as T | undefined;
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind);
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Kubernetes label selector semantics; an empty selector selects everything. */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  const actual = labels ?? {};
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) if (actual[key] !== value) return false;
  for (const expression of selector?.matchExpressions ?? []) {
    const present = expression.key in actual;
    const values = expression.values ?? [];
    if (expression.operator === 'In' && !(present && values.includes(actual[expression.key]))) return false;
    if (expression.operator === 'NotIn' && present && values.includes(actual[expression.key])) return false;
    if (expression.operator === 'Exists' && !present) return false;
    if (expression.operator === 'DoesNotExist' && present) return false;
  }
  return true;
}

/** Service selectors are plain maps: every pair must be on the pod. */
export function serviceSelects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return selects({ matchLabels: selector }, labels);
}

export interface PodTemplateOwner {
  owner: K8sObject;
  labels: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec: any;
}

/** Pod templates of Deployments and Jobs, with their labels. */
export function podTemplates(objects: K8sObject[]): PodTemplateOwner[] {
  return objects
    .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
    .map((owner) => ({ owner, labels: owner.spec.template.metadata?.labels ?? {}, spec: owner.spec.template.spec }));
}

export interface IngressBackend {
  ingress: string;
  service: string;
  port: { name?: string; number?: number };
  path: string;
  pathType: string;
}

/**
 * Which backend an Ingress set sends host + path to (the Ingress spec's rules: Exact equals the
 * path; Prefix matches whole path elements; the longest match wins, Exact before Prefix).
 */
export function routeRequest(ingresses: K8sObject[], host: string, requestPath: string): IngressBackend | undefined {
  const requestElements = requestPath.split('/').filter(Boolean);
  let best: { backend: IngressBackend; score: number } | undefined;
  for (const ingress of ingresses) {
    for (const rule of ingress.spec.rules ?? []) {
      if (rule.host !== undefined && rule.host !== host) continue;
      for (const entry of rule.http?.paths ?? []) {
        const elements = String(entry.path).split('/').filter(Boolean);
        let matched = false;
        if (entry.pathType === 'Exact') matched = entry.path === requestPath;
        else if (entry.pathType === 'Prefix') matched = elements.every((element, index) => requestElements[index] === element);
        // ingress-nginx with use-regex: the path is a case-insensitive regular expression anchored at the start.
        else if (entry.pathType === 'ImplementationSpecific' && ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/use-regex'] === 'true') matched = new RegExp(`^${entry.path}`, 'i').test(requestPath);
        else throw new Error(`${ingress.metadata.name}: pathType ${entry.pathType} is implementation-specific; use Exact or Prefix (or a regex with nginx.ingress.kubernetes.io/use-regex)`);
        if (!matched) continue;
        const score = String(entry.path).length * 2 + (entry.pathType === 'Exact' ? 1 : 0);
        if (!best || score > best.score) {
          best = {
            score,
            backend: {
              ingress: ingress.metadata.name,
              service: entry.backend.service.name,
              port: entry.backend.service.port,
              path: entry.path,
              pathType: entry.pathType,
            },
          };
        }
      }
    }
  }
  return best?.backend;
}

/** Every variable a container gets, with where it comes from. */
export interface EnvSource {
  name: string;
  from: 'value' | 'configMap' | 'secret' | 'field';
  value?: string;
  ref?: { name: string; key: string; optional: boolean };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function containerEnvironment(container: any, objects: K8sObject[]): { sources: EnvSource[]; problems: string[] } {
  const sources: EnvSource[] = [];
  const problems: string[] = [];
  for (const entry of container.envFrom ?? []) {
    if (entry.configMapRef) {
      const configMap = named(objects, 'ConfigMap', entry.configMapRef.name);
      if (!configMap) {
        problems.push(`envFrom ConfigMap ${entry.configMapRef.name} is not in the render`);
        continue;
      }
      for (const [name, value] of Object.entries(configMap.data ?? {})) sources.push({ name: `${entry.prefix ?? ''}${name}`, from: 'configMap', value: String(value) });
    } else if (entry.secretRef) {
      problems.push(`envFrom secretRef ${entry.secretRef.name}: name each secret variable with secretKeyRef instead`);
    }
  }
  for (const entry of container.env ?? []) {
    if (entry.value !== undefined) sources.push({ name: entry.name, from: 'value', value: String(entry.value) });
    else if (entry.valueFrom?.secretKeyRef) {
      const ref = entry.valueFrom.secretKeyRef;
      sources.push({ name: entry.name, from: 'secret', ref: { name: ref.name, key: ref.key, optional: ref.optional === true } });
    } else if (entry.valueFrom?.configMapKeyRef) {
      const ref = entry.valueFrom.configMapKeyRef;
      const configMap = named(objects, 'ConfigMap', ref.name);
      const value = configMap?.data?.[ref.key];
      if (value === undefined && ref.optional !== true) problems.push(`${entry.name}: ConfigMap ${ref.name} has no key ${ref.key}`);
      sources.push({ name: entry.name, from: 'configMap', value });
    } else if (entry.valueFrom?.fieldRef) {
      sources.push({ name: entry.name, from: 'field', value: `${entry.valueFrom.fieldRef.fieldPath}-of-the-pod` });
    } else {
      problems.push(`${entry.name}: value or valueFrom not understood`);
    }
  }
  return { sources, problems };
}
