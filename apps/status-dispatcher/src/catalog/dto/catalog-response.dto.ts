import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ANY_JSON_VALUE } from '@courier/http';

const IMPORT_STATES = ['queued', 'running', 'done', 'failed'];

/** 202 of POST /api/v1/my/integrations/{integrationId}/catalog/import. */
export class ImportAcceptedDto {
  @ApiProperty({ format: 'uuid', description: 'The import: follow it with GET /api/v1/my/catalog/imports/{importId}.' })
  importId!: string;

  @ApiProperty({ enum: IMPORT_STATES, example: 'queued' })
  state!: string;

  @ApiProperty({ example: '2026-11-26T14:00:00.000Z' })
  requestedAt!: string;

  @ApiProperty({ description: 'true: an import of this integration was queued or running already; this is that one (nothing new was queued).' })
  alreadyPending!: boolean;
}

/** What a done import found. */
export class ImportCountsDto {
  @ApiProperty({ example: 6, description: 'Products on the menu read.' })
  products!: number;

  @ApiProperty({ example: 0, description: 'Products the menu no longer lists (marked removed).' })
  removed!: number;

  @ApiProperty({ example: 4, description: 'Products linked to the restaurant\'s code they carry, by this import.' })
  autoLinked!: number;

  @ApiProperty({ example: 1, description: 'Differences with the previous import (none on the first).' })
  drift!: number;
}

/** The platform's answer as kept: its HTTP status and body (bounded), how it was read, and when. */
export class CatalogAnswerDto {
  @ApiProperty({ enum: ['done', 'retry', 'failed'] })
  outcome!: string;

  @ApiProperty({ nullable: true, type: Number, example: 200 })
  httpStatus!: number | null;

  @ApiPropertyOptional({ description: 'The platform\'s body (a menu read that succeeded keeps none: its products are stored).', anyOf: ANY_JSON_VALUE })
  body?: unknown;

  @ApiPropertyOptional({ description: 'For a call without an HTTP answer: what went wrong.' })
  error?: string;

  @ApiProperty({ example: '2026-11-26T14:00:01.250Z' })
  at!: string;
}

/** GET /api/v1/my/catalog/imports/{importId}. */
export class ImportViewDto {
  @ApiProperty({ format: 'uuid' })
  importId!: string;

  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01' })
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ enum: ['restaurant', 'schedule'] })
  requestedBy!: string;

  @ApiProperty({ enum: IMPORT_STATES, description: 'queued: waiting (for its time or the platform\'s call budget); running: read at least once, retried after network errors, 429 or 5xx; done: stored; failed: nothing stored (lastError says why).' })
  state!: string;

  @ApiProperty({ example: '2026-11-26T14:00:00.000Z' })
  requestedAt!: string;

  @ApiProperty({ nullable: true, type: String })
  startedAt!: string | null;

  @ApiProperty({ nullable: true, type: String })
  finishedAt!: string | null;

  @ApiProperty({ example: 1, description: 'Menu reads made.' })
  attempts!: number;

  @ApiProperty({ type: ImportCountsDto, nullable: true, description: 'done: what it found.' })
  counts!: ImportCountsDto | null;

  @ApiProperty({ type: CatalogAnswerDto, nullable: true })
  lastAnswer!: CatalogAnswerDto | null;

  @ApiProperty({ nullable: true, type: String, example: null })
  lastError!: string | null;
}

/** A platform product linked to a code. */
export class LinkedProductDto {
  @ApiProperty({ example: 'getir-5f1a' })
  platformProductId!: string;

  @ApiProperty({ nullable: true, type: String, example: 'Adana Kebap', description: 'As the platform names it (null: known from orders only, without a name).' })
  name!: string | null;

  @ApiProperty({ nullable: true, type: Number, example: 320, description: 'On the platform\'s menu as last imported (null: not given, or known from orders only).' })
  price!: number | null;

  @ApiProperty({ nullable: true, enum: ['ACTIVE', 'INACTIVE'], description: 'On the platform\'s menu as last imported (null: known from orders only).' })
  status!: string | null;

  @ApiProperty({ enum: ['external_code', 'manual', 'confirmed'], description: 'external_code: the product carries the code on the platform; manual: set by hand; confirmed: a proposal accepted by hand.' })
  linkedBy!: string;

  @ApiProperty({ nullable: true, type: String, description: 'When the last import no longer found it on the menu (null: on the menu).' })
  removedAt!: string | null;
}

/** The code on one integration. */
export class CodeOnIntegrationDto {
  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01' })
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ type: LinkedProductDto, nullable: true, description: 'null: not on this platform (no product linked to the code).' })
  linked!: LinkedProductDto | null;
}

/** One of the restaurant's products. */
export class CatalogProductDto {
  @ApiProperty({ example: 'ADANA-01' })
  productCode!: string;

  @ApiProperty({ nullable: true, type: String, example: 'Adana Kebap' })
  name!: string | null;

  @ApiProperty({ enum: ['external_code', 'manual', 'order'], description: 'Where the code came from: a platform product carrying it, set by hand, an order.' })
  source!: string;

  @ApiProperty({ type: [CodeOnIntegrationDto], description: 'One entry per active delivery-platform integration of the account.' })
  integrations!: CodeOnIntegrationDto[];
}

/** GET /api/v1/my/catalog. */
export class CatalogViewDto {
  @ApiProperty({ type: [CatalogProductDto], description: 'By productCode.' })
  products!: CatalogProductDto[];
}

/** A platform product linked to no code. */
export class UnmappedProductDto {
  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01' })
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_C' })
  platform!: string;

  @ApiProperty({ example: 'tgo-88123' })
  platformProductId!: string;

  @ApiProperty({ nullable: true, type: String, example: 'KÜNEFE' })
  name!: string | null;

  @ApiProperty({ nullable: true, type: Number, example: 150 })
  price!: number | null;

  @ApiProperty({ nullable: true, type: String, example: 'Tatlılar' })
  category!: string | null;

  @ApiProperty({ nullable: true, enum: ['ACTIVE', 'INACTIVE'] })
  status!: string | null;

  @ApiProperty({ description: 'On the integration\'s menu as last imported (false: known from its orders only).' })
  onMenu!: boolean;

  @ApiProperty({ example: 2, description: 'Orders it was seen in.' })
  seenInOrders!: number;

  @ApiProperty({ nullable: true, type: String, example: 'KUNEFE-01', description: 'The code proposed by name (Turkish case and accents folded): the one code named so, or linked elsewhere to a product named so; null: none, or several.' })
  proposedProductCode!: string | null;
}

/** GET /api/v1/my/catalog/unmapped. */
export class UnmappedViewDto {
  @ApiProperty({ type: [UnmappedProductDto], description: 'By integration and name, at most 1000.' })
  products!: UnmappedProductDto[];
}

/** One difference found by a re-import. */
export class DriftDto {
  @ApiProperty({ format: 'uuid' })
  driftId!: string;

  @ApiProperty({ format: 'uuid' })
  importId!: string;

  @ApiProperty({ example: '7d0b8d2e-3c41-4c55-9a3e-1f1c2b9d8e01' })
  integrationId!: string;

  @ApiProperty({ example: 'PLATFORM_A' })
  platform!: string;

  @ApiProperty({ example: 'getir-5f1a' })
  platformProductId!: string;

  @ApiProperty({ nullable: true, type: String, example: 'ADANA-01' })
  productCode!: string | null;

  @ApiProperty({ enum: ['price', 'name', 'status', 'added', 'removed', 'linked_removed'] })
  kind!: string;

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'object', nullable: true, enum: [null] }], example: 320, description: 'price: a number (null: the menu gave none); name: text; status: ACTIVE / INACTIVE; null for added / removed.' })
  before!: string | number | null;

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'object', nullable: true, enum: [null] }], example: 340, description: 'As before.' })
  after!: string | number | null;

  @ApiProperty({ example: '2026-11-26T14:00:01.250Z' })
  detectedAt!: string;
}

/** GET /api/v1/my/catalog/drift. */
export class DriftViewDto {
  @ApiProperty({ type: [DriftDto], description: 'Newest first.' })
  drift!: DriftDto[];
}
