import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import type { DirectoryAccount } from '../account-directory/account-directory.model';
import { ApiProblems } from '../common/api-problems';
import { CatalogService } from './catalog.service';
import { DriftQueryDto, SetProductLinksRequestDto } from './dto/catalog-request.dto';
import { CatalogProductDto, CatalogViewDto, DriftViewDto, ImportAcceptedDto, ImportViewDto, UnmappedViewDto } from './dto/catalog-response.dto';

const AUTH_401 = [401, 'AUTHENTICATION_FAILED: X-API-Key and X-API-Secret missing, wrong, or of a disabled account.'] as const;

/** The restaurant's catalog across its delivery platforms (docs/catalog.md). */
@ApiTags('catalog')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(AUTH_401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my')
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Post('integrations/:integrationId/catalog/import')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Import the integration\'s menu from its platform.',
    description:
      'Queues a durable import: the menu is read within the platform\'s call budget, retried on network errors, 429 and 5xx, final on a refusal. ' +
      'Done, it stores the products (those no longer listed marked removed), links each product carrying one of the restaurant\'s codes to that code, ' +
      'and, from the second import on, records what changed on the platform\'s side (GET /api/v1/my/catalog/drift, and one catalog.drift_detected webhook per import with changes). ' +
      'A failed import changes nothing. An import of this integration already queued or running is answered instead of a second one (alreadyPending: true).',
  })
  @ApiParam({ name: 'integrationId', description: 'A delivery-platform integration of the account, active and verified.' })
  @ApiAcceptedResponse({ type: ImportAcceptedDto })
  @ApiProblems(
    [404, 'INTEGRATION_NOT_FOUND: no delivery-platform integration of this account has this id.'],
    [409, 'INTEGRATION_DISABLED: the integration is not active. INTEGRATION_NOT_VERIFIED: not verified by its platform yet.'],
    [422, 'MENU_READ_UNSUPPORTED: the platform\'s API offers no menu read (the detail says what it has instead).'],
  )
  requestImport(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('integrationId') integrationId: string): Promise<ImportAcceptedDto> {
    return this.catalog.requestImport(restaurantId, integrationId);
  }

  @Get('catalog/imports/:importId')
  @ApiOperation({ summary: 'An import: its state, what it found, the platform\'s last answer.' })
  @ApiParam({ name: 'importId', description: 'The importId answered by POST .../catalog/import.' })
  @ApiOkResponse({ type: ImportViewDto })
  @ApiProblems([404, 'IMPORT_NOT_FOUND: no import of this account has this id.'])
  importView(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('importId') importId: string): Promise<ImportViewDto> {
    return this.catalog.importView(restaurantId, importId);
  }

  @Get('catalog')
  @ApiOperation({
    summary: 'The restaurant\'s products by productCode, each with its product on every active platform integration, or null: not on this platform.',
  })
  @ApiOkResponse({ type: CatalogViewDto })
  view(@CurrentAccount() { restaurantId }: DirectoryAccount): Promise<CatalogViewDto> {
    return this.catalog.view(restaurantId);
  }

  @Get('catalog/unmapped')
  @ApiOperation({
    summary: 'Platform products (on imported menus, or seen in orders) linked to no code, each with the code proposed by its name, if one.',
    description: 'A proposal is the one code whose name, or the name of a product linked to it on another integration, is the product\'s name with Turkish case and accents folded. Confirm it with PUT .../catalog/products/{productCode}/links.',
  })
  @ApiOkResponse({ type: UnmappedViewDto })
  unmapped(@CurrentAccount() { restaurantId }: DirectoryAccount): Promise<UnmappedViewDto> {
    return this.catalog.unmapped(restaurantId);
  }

  @Put('catalog/products/:productCode/links')
  @ApiOperation({
    summary: 'Set the code\'s product on each listed integration (creating the code when new).',
    description:
      'Per listed integration, the code\'s link is replaced by the given product (null: removed); integrations not listed keep theirs. ' +
      'A product linked to another code moves to this one. A link that is the catalog\'s proposal is recorded `confirmed`, any other `manual`; an import never changes either.',
  })
  @ApiParam({ name: 'productCode', description: 'The restaurant\'s code: 1-64 printable characters, no surrounding white space.' })
  @ApiOkResponse({ type: CatalogProductDto })
  @ApiProblems(
    400,
    [404, 'INTEGRATION_NOT_FOUND: a listed integration is not a delivery-platform integration of this account. PRODUCT_NOT_FOUND: a product is neither on the integration\'s imported menu nor in its orders.'],
    [409, 'CATALOG_LINK_CONFLICT: an import linked the code on a listed integration at the same moment, again on the one retry made; nothing was changed, send the request again.'],
    413,
    [422, 'VALIDATION_ERROR: productCode empty, over 64 characters, with control or invisible characters or surrounding white space; links missing, over 50, an integration listed twice, platformProductId not null nor 1-128 characters; name empty or over 200 characters.'],
  )
  setLinks(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('productCode') productCode: string, @Body() body: SetProductLinksRequestDto): Promise<CatalogProductDto> {
    return this.catalog.setLinks(restaurantId, productCode, body);
  }

  @Get('catalog/drift')
  @ApiOperation({ summary: 'What re-imports found changed on the platforms\' side (price, name, status, products added or removed, a linked product removed), newest first.' })
  @ApiOkResponse({ type: DriftViewDto })
  @ApiProblems([422, 'VALIDATION_ERROR: since not ISO 8601, limit not an integer of 1-500.'])
  drift(@CurrentAccount() { restaurantId }: DirectoryAccount, @Query() query: DriftQueryDto): Promise<DriftViewDto> {
    return this.catalog.drift(restaurantId, query);
  }
}
