import { prepared } from '../../src/db/pool';

describe('prepared statements', () => {
  it('may be declared again with the same text, never under one name with two texts', () => {
    const a = prepared('unit_prepared_example', 'SELECT 1');
    expect(prepared('unit_prepared_example', 'SELECT 1')).toEqual(a);
    expect(() => prepared('unit_prepared_example', 'SELECT 2')).toThrow(/two different texts/);
  });
});
