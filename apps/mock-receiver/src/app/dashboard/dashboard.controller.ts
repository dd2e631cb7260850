import { Controller, Get, Header, Logger, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';

/** Beside the compiled code as beside the sources (tools/build.mjs copies src/assets). */
export const ASSETS_DIR = path.resolve(__dirname, '..', '..', 'assets');

const ASSETS: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
};

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

/** The dashboard: static HTML, CSS and vanilla JS read once at start, no build step. */
@ApiExcludeController()
@Controller()
export class DashboardController {
  private readonly logger = new Logger(DashboardController.name);
  private readonly files = new Map<string, Buffer>();

  constructor() {
    for (const name of ['index.html', ...Object.keys(ASSETS)]) {
      const file = path.join(ASSETS_DIR, name);
      if (existsSync(file)) this.files.set(name, readFileSync(file));
    }
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  index(@Res() res: Response): void {
    this.send(res, 'index.html', 'text/html; charset=utf-8');
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    // Own properties only: `__proto__`, `constructor` and the like are names of Object.prototype, not assets.
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) throw new ProblemException(404, ErrorCode.NotFound, 'No such asset.');
    this.send(res, name, type);
  }

  private send(res: Response, name: string, type: string): void {
    const content = this.files.get(name);
    if (!content) {
      // The install path goes to the log, never into an answer.
      this.logger.error({ file: path.join(ASSETS_DIR, name) }, 'dashboard file missing; build with node tools/build.mjs apps/mock-receiver');
      throw new ProblemException(503, ErrorCode.ServiceUnavailable, `Dashboard file ${name} is missing from this build; the log names where it was looked for.`);
    }
    for (const [header, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(header, value);
    res.setHeader('Content-Type', type);
    res.end(content);
  }
}
