import { INestApplication } from '@nestjs/common';
import http from 'node:http';
import type { RequestListener } from 'node:http';

export interface PosRoutes {
  integrations: INestApplication;
  dispatcher: INestApplication;
  sender: INestApplication;
}

/** Which app serves a {pos_url} path: the same table as the Kubernetes Ingress (k8s/base/ingress.yaml). */
export function posRouteFor(url: string): keyof PosRoutes {
  const pathname = url.split('?')[0];
  if (pathname === '/internal' || pathname.startsWith('/internal/')) return 'dispatcher';
  // The platforms' order webhooks and plugin endpoints (public in a cluster, unlike /internal).
  if (pathname === '/platforms' || pathname.startsWith('/platforms/')) return 'dispatcher';
  // The dispatcher's one admin list (X-Admin-Token), beside integrations-api's /admin/v1.
  if (pathname === '/admin/v1/withheld-orders' || pathname.startsWith('/admin/v1/withheld-orders/')) return 'dispatcher';
  if (pathname === '/api/v1/my/webhooks/deliveries' || pathname.startsWith('/api/v1/my/webhooks/deliveries/')) return 'sender';
  // The restaurant's availability and its products' (the dispatcher keeps them and talks to the platforms).
  if (pathname === '/api/v1/my/availability' || pathname.startsWith('/api/v1/my/availability/')) return 'dispatcher';
  // The restaurant's catalog across its platforms, and an integration's menu import.
  if (pathname === '/api/v1/my/catalog' || pathname.startsWith('/api/v1/my/catalog/')) return 'dispatcher';
  if (INTEGRATION_PRODUCTS.test(pathname) || INTEGRATION_CATALOG.test(pathname)) return 'dispatcher';
  return 'integrations';
}

/** `/api/v1/my/integrations/{id}/products[/...]`: an integration's products (the Ingress has the same pattern). */
const INTEGRATION_PRODUCTS = /^\/api\/v1\/my\/integrations\/[^/]+\/products(\/|$)/;
/** `/api/v1/my/integrations/{id}/catalog[/...]`: an integration's menu import (the Ingress has the same pattern). */
const INTEGRATION_CATALOG = /^\/api\/v1\/my\/integrations\/[^/]+\/catalog(\/|$)/;

/**
 * {pos_url} in the one-machine mode: one port, three apps, routed by path in-process (no proxy hop),
 * the way the Ingress routes them in a cluster. Each app keeps its own middleware and error handling.
 */
export function createPosGateway(routes: PosRoutes): http.Server {
  const handlers: Record<keyof PosRoutes, RequestListener> = {
    integrations: routes.integrations.getHttpAdapter().getInstance(),
    dispatcher: routes.dispatcher.getHttpAdapter().getInstance(),
    sender: routes.sender.getHttpAdapter().getInstance(),
  };
  return http.createServer((req, res) => handlers[posRouteFor(req.url ?? '/')](req, res));
}
