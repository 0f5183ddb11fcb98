import { createId } from './create-id';

describe('createId', () => {
  it('gives prefixed base62 ids of the asked length, all different across pool refills', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createId('req_')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]{24}$/);
    expect(createId('x_', 8)).toMatch(/^x_[A-Za-z0-9]{8}$/);
  });
});
