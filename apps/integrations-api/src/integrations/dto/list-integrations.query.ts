import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '@courier/http';

export class ListIntegrationsQuery extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only integrations of this platform (wire code).', example: 'PLATFORM_A' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  platform?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Only active (true) or inactive (false) integrations.' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'isActive must be true or false' })
  isActive?: 'true' | 'false';
}
