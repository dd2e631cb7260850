import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/api-problems';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import { accountView } from './account.presenter';
import { AccountsService } from './accounts.service';
import { AccountDto } from './dto/account.dto';
import { RestaurantEntity } from './restaurant.entity';

@ApiTags('account')
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@ApiProblems(401, 500)
@UseGuards(ApiCredentialsGuard)
@Controller('api/v1/my/account')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({ summary: 'The account the key pair belongs to (restaurantId for order intake).' })
  @ApiOkResponse({ type: AccountDto })
  async get(@CurrentAccount() restaurant: RestaurantEntity): Promise<AccountDto> {
    return accountView(await this.accounts.get(restaurant.id));
  }
}
