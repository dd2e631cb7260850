import { IsString } from 'class-validator';
import { nestsDeeperThan, strictValidationPipe, unknownFieldsBeyondCap } from './validation';
import { ProblemException } from './problem.exception';

class NameDto {
  @IsString()
  name: string;
}

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let index = 0; index < depth; index += 1) value = [value];
  return value;
};

describe('nestsDeeperThan', () => {
  it('measures nesting of objects and arrays without recursion', () => {
    expect(nestsDeeperThan({ a: 1 }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: { b: 1 } }, 1)).toBe(true);
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
    expect(nestsDeeperThan(nested(200_000), 32)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
  });
});

describe('strictValidationPipe', () => {
  const pipe = strictValidationPipe();
  const metadata = { type: 'body' as const, metatype: NameDto, data: undefined };

  it('refuses a deeply nested body with 400 INVALID_PAYLOAD instead of overflowing the stack', async () => {
    const error = await pipe.transform({ name: 'x', extra: nested(100_000) }, metadata).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemException);
    expect(error).toMatchObject({ code: 'INVALID_PAYLOAD' });
    expect((error as ProblemException).getStatus()).toBe(400);
  });

  it('still validates ordinary bodies strictly', async () => {
    await expect(pipe.transform({ name: 'x' }, metadata)).resolves.toBeInstanceOf(NameDto);
    await expect(pipe.transform({ name: 'x', other: 1 }, metadata)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('unknownFieldsBeyondCap', () => {
  class ItemDto {
    @IsString()
    productName: string;
  }
  class OrderDto {
    @IsString()
    orderId: string;
  }
  const flood = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 1]));

  it('names every unknown field once they are more than a 422 lists, nested DTO elements included', () => {
    expect(unknownFieldsBeyondCap(OrderDto, { orderId: 'a', ...flood(20) })).toBeUndefined();
    expect(unknownFieldsBeyondCap(OrderDto, { orderId: 'a', ...flood(21) })).toHaveLength(21);
    const nested = unknownFieldsBeyondCap(OrderDto, { orderId: 'a', items: [{ productName: 'x' }, { productName: 'y', ...flood(30) }] }, { items: ItemDto });
    expect(nested).toHaveLength(31);
    expect(nested?.slice(0, 2)).toEqual([
      { field: 'items', message: 'is not allowed' },
      { field: 'items[1].k0', message: 'is not allowed' },
    ]);
    expect(unknownFieldsBeyondCap(OrderDto, { orderId: 'a', items: [{ productName: 'x' }] }, { items: ItemDto })).toBeUndefined();
  });
});
