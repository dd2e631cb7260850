import { Body, Controller, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import type { DirectoryAccount } from '../account-directory/account-directory.model';
import { ApiProblems } from '../common/api-problems';
import { CatalogChangesService } from './catalog-changes.service';
import { CatalogAvailabilityRequestDto, CatalogPriceRequestDto } from './dto/catalog-change-request.dto';
import { CatalogChangeAcceptedDto, CatalogChangeViewDto } from './dto/catalog-change-response.dto';

const AUTH_401 = [401, 'AUTHENTICATION_FAILED: X-API-Key and X-API-Secret missing, wrong, or of a disabled account.'] as const;
const CODE_404 = [404, 'PRODUCT_CODE_NOT_FOUND: the catalog has no product with this code (no platform product linked to it, never recorded).'] as const;
const CODE_PARAM = { name: 'productCode', description: 'The restaurant\'s own product code (1-128 characters).' };

/** Sold out and prices by the restaurant's own product code, on every platform where the product is linked (docs/catalog.md). */
@ApiTags('catalog')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(AUTH_401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my/catalog')
export class CatalogChangesController {
  constructor(private readonly changes: CatalogChangesService) {}

  @Put('products/:productCode/availability')
  @HttpCode(202)
  @ApiOperation({
    summary: 'The product sold out (available: false, optionally until a time it comes back by itself) or back on, on every platform where it is linked.',
    description:
      'Each active, verified integration with a product linked to the code gets a product availability command, as PUT /api/v1/my/integrations/{id}/products/{platformProductId}/availability does it (budget, retries, last request wins per product, back on at `until`). ' +
      'Every active integration of the account is answered: queued, unsupported (the platform cannot switch products), refused (not verified), or not_linked. Follow it with GET /api/v1/my/catalog/changes/{changeId}.',
  })
  @ApiParam(CODE_PARAM)
  @ApiAcceptedResponse({ type: CatalogChangeAcceptedDto })
  @ApiProblems(
    400,
    CODE_404,
    413,
    [422, 'VALIDATION_ERROR: unknown fields, available missing or not a boolean, until not ISO 8601, with available: true, or more than 31 days ahead, productCode blank or over 128 characters. UNTIL_IN_PAST: until is not in the future.'],
  )
  requestAvailability(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('productCode') productCode: string, @Body() body: CatalogAvailabilityRequestDto): Promise<CatalogChangeAcceptedDto> {
    return this.changes.requestAvailability(restaurantId, productCode, body);
  }

  @Put('products/:productCode/price')
  @HttpCode(202)
  @ApiOperation({
    summary: 'A new price for the product on every platform where it is linked.',
    description:
      'Each platform checks the price first (its bounds and decimals): what it refuses is answered `refused` with the code, nothing is queued. The others get a durable price command (budget, retries, a newer price of the product supersedes one not sent yet); ' +
      'a platform that works on prices asynchronously is followed to its result (state checking). Every active integration of the account is answered (not_linked where no product is linked to the code).',
  })
  @ApiParam(CODE_PARAM)
  @ApiAcceptedResponse({ type: CatalogChangeAcceptedDto })
  @ApiProblems(400, CODE_404, 413, [422, 'VALIDATION_ERROR: unknown fields, price missing, not a number, not greater than 0, over 1000000 or with more than 2 decimals, productCode blank or over 128 characters.'])
  requestPrice(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('productCode') productCode: string, @Body() body: CatalogPriceRequestDto): Promise<CatalogChangeAcceptedDto> {
    return this.changes.requestPrice(restaurantId, productCode, body);
  }

  @Get('changes/:changeId')
  @ApiOperation({ summary: 'A change by product code, per integration: its command\'s state (queued, retrying, checking, sent, failed, superseded), attempts, the last platform answer and error; or what was answered at once (refused, unsupported, not_linked).' })
  @ApiParam({ name: 'changeId', description: 'The changeId answered by PUT .../availability or .../price.' })
  @ApiOkResponse({ type: CatalogChangeViewDto })
  @ApiProblems([404, 'CATALOG_CHANGE_NOT_FOUND: the account has no catalog change with this id.'])
  change(@CurrentAccount() { restaurantId }: DirectoryAccount, @Param('changeId') changeId: string): Promise<CatalogChangeViewDto> {
    return this.changes.change(restaurantId, changeId);
  }
}
