import type { JSONObject } from '../json';
import { createDroppedOptionsDescriber } from './describe-dropped-options';
import { collectUnknownFields, describeUnknownFields, MAX_NAMED_UNKNOWN_FIELDS, mergeUnknownFields } from './unknown-fields';

const DROPPED = "not a field the gateway knows; the route's upstream speaks another protocol, so it was not sent";

describe('collectUnknownFields', () => {
  it('returns the fields outside the known set, as sent, or undefined when there are none', () => {
    const known = new Set(['model', 'input']);
    expect(collectUnknownFields({ model: 'm', input: 'hi', brand_new_field: { a: [1] } }, known)).toEqual({ brand_new_field: { a: [1] } });
    expect(collectUnknownFields({ model: 'm', input: 'hi' }, known)).toBeUndefined();
  });

  it('keeps a field named __proto__ as an own field, never as a prototype', () => {
    const body = JSON.parse('{"__proto__":{"polluted":true}}') as JSONObject;
    const unknown = collectUnknownFields(body, new Set())!;
    expect(Object.keys(unknown)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(unknown)).toBe(Object.prototype);
  });
});

describe('mergeUnknownFields', () => {
  it('adds the unknown fields where the body has nothing, never replacing what the encoder set', () => {
    const body: JSONObject = { model: 'upstream', input: [] };
    mergeUnknownFields(body, { unknown_fields: { model: 'client-choice', brand_new_field: 1 } });
    expect(body).toEqual({ model: 'upstream', input: [], brand_new_field: 1 });
  });

  it('adds a field named __proto__ as an own field that JSON.stringify writes', () => {
    const body: JSONObject = { model: 'm' };
    mergeUnknownFields(body, { unknown_fields: JSON.parse('{"__proto__":{"x":1}}') as JSONObject });
    expect(JSON.stringify(body)).toBe('{"model":"m","__proto__":{"x":1}}');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });
});

describe('describeUnknownFields', () => {
  it('names each plain lower-case field with one unknown-field warning', () => {
    expect(describeUnknownFields({ unknown_fields: { brand_new_field: 1, other_new_field: true } })).toEqual([
      { type: 'unknown-field', field: 'brand_new_field', details: DROPPED },
      { type: 'unknown-field', field: 'other_new_field', details: DROPPED },
    ]);
  });

  it('never echoes a name that is not a plain identifier of at most 64 characters: it is counted instead', () => {
    const key = `sbx-${'A1b2'.repeat(10)}`;
    const fields = { [key]: 1, ['k'.repeat(10_000)]: 2, MixedCase: 3, ['a'.repeat(65)]: 4, ['a'.repeat(64)]: 5, 'x y': 6 };
    const warnings = describeUnknownFields({ unknown_fields: fields });
    expect(warnings.map(warning => warning.field)).toEqual(['a'.repeat(64), '5 other fields']);
    expect(JSON.stringify(warnings)).not.toContain(key);
  });

  it(`names at most ${MAX_NAMED_UNKNOWN_FIELDS} fields of thousands and counts the rest in one warning`, () => {
    const fields = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`field_${index}`, index]));
    const warnings = describeUnknownFields({ unknown_fields: fields });
    expect(warnings).toHaveLength(MAX_NAMED_UNKNOWN_FIELDS + 1);
    expect(warnings.slice(0, 2).map(warning => warning.field)).toEqual(['field_0', 'field_1']);
    expect(warnings.at(-1)).toEqual({ type: 'unknown-field', field: '4980 other fields', details: DROPPED });
  });

  it('says "1 other field" for a single unnamed one', () => {
    expect(describeUnknownFields({ unknown_fields: { 'Not-Plain': 1 } }).map(warning => warning.field)).toEqual(['1 other field']);
  });

  it('is part of every codec describer, after the protocol-only fields', () => {
    const describe = createDroppedOptionsDescriber(['store']);
    expect(describe({ store: true, top_k: 3, unknown_fields: { brand_new_field: 1 } }).map(warning => `${warning.field} (${warning.type})`)).toEqual([
      'top_k (unsupported-field)',
      'brand_new_field (unknown-field)',
    ]);
  });
});
