import { CASE_CEILING, CASE_ROUTES } from '@signalbox/accounts/testing';
import fc from 'fast-check';

type Member = keyof typeof CASE_CEILING;
const MEMBERS = Object.keys(CASE_CEILING) as Member[];
/** The members where a smaller value gives a key more. */
const SHORTER_IS_MORE: ReadonlySet<Member> = new Set(['windowSeconds', 'quotaPeriodHours']);

/** Usually absent, sometimes present: a field an account mostly has no business sending. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

/**
 * A value for a limit member: mostly one that gives no more than the cases' ceiling, otherwise one
 * at or just past it, one of the defaults' values, something far beyond, or 0 (invalid for most).
 */
const limitValue = (member: Member) => {
  const ceiling = CASE_CEILING[member];
  const within = SHORTER_IS_MORE.has(member) ? fc.integer({ min: ceiling, max: ceiling * 10 }) : fc.integer({ min: 1, max: ceiling });
  return fc.oneof(
    { weight: 4, arbitrary: within },
    { weight: 2, arbitrary: fc.constantFrom(0, 1, ceiling - 1, ceiling + 1, 64, 256, 30_000) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 2_000_000 }) },
  );
};

/** Any subset of the limit members, each with a value. */
export const limitsArbitrary = fc.record(
  Object.fromEntries(MEMBERS.map(member => [member, limitValue(member)])) as Record<Member, fc.Arbitrary<number>>,
  { requiredKeys: [] },
);

/** A ceiling the operator may give the account: none (then `limits.default`), the cases' full one, or some members. */
export const ceilingArbitrary = fc.oneof(fc.constant(undefined), fc.constant(CASE_CEILING), limitsArbitrary.filter(limits => Object.values(limits).every(value => value > 0)));

const ACCOUNT_MODELS = ['open-model', 'silver-model'];
const OTHER_MODELS = [...CASE_ROUTES.map(route => route.model).filter(model => !ACCOUNT_MODELS.includes(model)), 'no-such-model'];

/** Model lists: mostly of the account's own models, sometimes with another group's or an unknown one. */
const allowedModels = fc.oneof(
  { weight: 3, arbitrary: fc.uniqueArray(fc.constantFrom(...ACCOUNT_MODELS), { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...ACCOUNT_MODELS, ...OTHER_MODELS), { minLength: 1, maxLength: 4 }) },
);

const group = fc.constantFrom('gold', 'silver', 'other');
const expiresAt = fc.constantFrom('2030-01-01T00:00:00Z', '2020-01-01T00:00:00Z');

/** A `POST /admin/keys` body as an account might send it: any of the fields, within reason or not. */
export const newKeyBody = fc.record({
  name: fc.constantFrom('a', 'b'),
  expiresAt: fc.option(expiresAt, { nil: undefined }),
  group: rarely(group),
  allowedModels: fc.option(allowedModels, { nil: undefined }),
  limits: fc.option(limitsArbitrary, { nil: undefined }),
});

/** A `PATCH /admin/keys/:id` body: any of the fields, `null` clearing, and a status either way. */
export const keyPatchBody = fc.record({
  name: fc.option(fc.constant('renamed'), { nil: undefined }),
  status: fc.option(fc.constantFrom('active', 'disabled'), { nil: undefined }),
  expiresAt: fc.option(fc.option(expiresAt), { nil: undefined }),
  group: rarely(fc.option(group)),
  allowedModels: fc.option(fc.option(allowedModels), { nil: undefined }),
  limits: fc.option(fc.option(limitsArbitrary), { nil: undefined }),
});

/** What an account does to its keys: create one, or change the key at an index of its key list. */
export const keyChange = fc.oneof(
  newKeyBody.map(body => ({ kind: 'create' as const, body })),
  fc.record({ kind: fc.constant('patch' as const), index: fc.nat(20), body: keyPatchBody }),
);
