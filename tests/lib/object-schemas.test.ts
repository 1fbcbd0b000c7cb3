/**
 * The contract's object and record schemas (src/contract/objects.ts): valibot's own, but an
 * array is not an object. valibot alone parses `[]` as `{}`.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AddressSchema, AlertRuleUpdateSchema, CustomerUpdateSchema } from '../../src/contract';
import * as o from '../../src/contract/objects';

const NOT_OBJECT = 'Tipo inválido: esperado objeto';
const issuesOf = (schema: v.GenericSchema, input: unknown) =>
  (v.safeParse(schema, input).issues ?? []).map((issue) => ({
    path: v.getDotPath(issue) ?? '',
    message: issue.message,
  }));
const refused = (path = '') => [{ path, message: NOT_OBJECT }];

const entries = { name: v.string(), note: v.optional(v.string()) };
const strict = o.strictObject(entries);

describe('the object schemas of the contract', () => {
  it('refuse an array, where valibot takes it for an empty object', () => {
    expect(v.safeParse(v.object({ a: v.optional(v.string()) }), []).success).toBe(true);
    const schemas = [
      o.object({ a: v.optional(v.string()) }),
      o.looseObject({}),
      o.strictObject({}),
      o.objectWithRest({}, v.string()),
      o.record(v.string(), v.unknown()),
    ];
    for (const schema of schemas) {
      for (const input of [[], ['x'], [{ a: 'b' }]]) {
        expect(issuesOf(schema, input), schema.type).toEqual(refused());
      }
      const [issue] = v.safeParse(schema, []).issues ?? [];
      expect(issue).toMatchObject({ kind: 'schema', expected: 'Object', received: 'Array' });
      // Standard Schema (what the server's validators call) says the same.
      const standard = schema['~standard'].validate([]);
      expect('issues' in standard && standard.issues?.[0]?.message).toBe(NOT_OBJECT);
    }
  });

  it('take plain objects as valibot does, and refuse other types the same way', () => {
    const input = { name: 'Frota', note: 'norte', extra: 1 };
    for (const [mine, theirs] of [
      [o.object(entries), v.object(entries)],
      [o.looseObject(entries), v.looseObject(entries)],
      [o.strictObject(entries), v.strictObject(entries)],
      [o.objectWithRest(entries, v.number()), v.objectWithRest(entries, v.number())],
    ] as const) {
      expect(v.safeParse(mine, input)).toEqual(v.safeParse(theirs, input));
      expect(v.safeParse(mine, { name: 'Frota' })).toEqual(v.safeParse(theirs, { name: 'Frota' }));
      for (const other of [null, undefined, 'x', 1])
        expect(v.safeParse(mine, other)).toEqual(v.safeParse(theirs, other));
      expect(toJsonSchema(mine)).toEqual(toJsonSchema(theirs));
    }
    const rec = o.record(v.string(), v.number());
    expect(v.parse(rec, { a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(issuesOf(rec, 'x')).toEqual(refused());
  });

  it('refuse a nested array: an address or the params of an alert rule sent as a list', () => {
    const customer = o.strictObject({ name: v.string(), address: v.optional(AddressSchema) });
    expect(issuesOf(customer, { name: 'X', address: [] })).toEqual(refused('address'));
    expect(issuesOf(customer, { name: 'X', address: { city: 'Belém' } })).toEqual([]);
    expect(issuesOf(CustomerUpdateSchema, { address: [] })).toEqual(refused('address'));
    expect(issuesOf(CustomerUpdateSchema, [])).toEqual(refused());
    expect(issuesOf(AlertRuleUpdateSchema, { params: [] })).toEqual(refused('params'));
    expect(issuesOf(AlertRuleUpdateSchema, { params: [80] })).toEqual(refused('params'));
    expect(issuesOf(AlertRuleUpdateSchema, { params: { speedLimit: 80 } })).toEqual([]);
  });

  it("keep refusing arrays through valibot's partial, pick, omit, required, pipe and wrappers", () => {
    const made = {
      partial: v.partial(strict),
      partialKeys: v.partial(strict, ['name']),
      pick: v.pick(strict, ['name']),
      omit: v.omit(strict, ['note']),
      required: v.required(strict),
      pipe: v.pipe(
        strict,
        v.check(() => true),
      ),
      optional: v.optional(strict),
      nullable: v.nullable(strict),
      spread: o.object({ ...strict.entries, more: v.optional(v.number()) }),
      variant: v.variant('kind', [
        o.object({ kind: v.literal('a') }),
        o.object({ kind: v.optional(v.literal('b')) }),
      ]),
    };
    for (const [name, schema] of Object.entries(made))
      expect(issuesOf(schema, []), name).toEqual(refused());
    // …and each still does its own work on objects.
    expect(v.parse(made.partial, {})).toEqual({});
    expect(v.parse(made.pick, { name: 'x' })).toEqual({ name: 'x' });
    expect(issuesOf(made.pick, { name: 'x', note: 'y' })).toEqual([
      { path: 'note', message: 'Campo não permitido' },
    ]);
    expect(issuesOf(made.omit, { name: 'x', note: 'y' })).toEqual([
      { path: 'note', message: 'Campo não permitido' },
    ]);
    expect(issuesOf(made.required, { name: 'x' })).toEqual([
      { path: 'note', message: 'Campo obrigatório' },
    ]);
    expect(v.parse(made.optional, undefined)).toBeUndefined();
    expect(v.parse(made.nullable, null)).toBeNull();
    expect(v.parse(made.variant, { kind: 'a' })).toEqual({ kind: 'a' });
  });

  it("use the schema's own message when it names one", () => {
    expect(issuesOf(o.object({}, 'Informe um objeto'), [])).toEqual([
      { path: '', message: 'Informe um objeto' },
    ]);
    expect(issuesOf(o.record(v.string(), v.string(), 'Informe um mapa'), [])).toEqual([
      { path: '', message: 'Informe um mapa' },
    ]);
  });

  it("have exactly valibot's types", () => {
    expectTypeOf(o.object(entries)).toEqualTypeOf(v.object(entries));
    expectTypeOf(o.looseObject(entries)).toEqualTypeOf(v.looseObject(entries));
    expectTypeOf(o.strictObject(entries)).toEqualTypeOf(v.strictObject(entries));
    expectTypeOf(o.strictObject(entries, 'msg')).toEqualTypeOf(v.strictObject(entries, 'msg'));
    expectTypeOf(o.objectWithRest(entries, v.number())).toEqualTypeOf(
      v.objectWithRest(entries, v.number()),
    );
    expectTypeOf(o.record(v.string(), v.number())).toEqualTypeOf(v.record(v.string(), v.number()));
    // The contract's schemas infer what valibot's would, and so does what is made of them.
    expectTypeOf(AddressSchema).toEqualTypeOf(v.strictObject(AddressSchema.entries));
    expectTypeOf<v.InferOutput<typeof AlertRuleUpdateSchema>>().toEqualTypeOf<
      v.InferOutput<ReturnType<typeof v.strictObject<typeof AlertRuleUpdateSchema.entries>>>
    >();
    expectTypeOf(v.partial(o.strictObject(entries))).toEqualTypeOf(
      v.partial(v.strictObject(entries)),
    );
    expectTypeOf(v.pick(o.object(entries), ['name'])).toEqualTypeOf(
      v.pick(v.object(entries), ['name']),
    );
    expectTypeOf<v.InferOutput<ReturnType<typeof v.partial<typeof strict>>>>().toEqualTypeOf<{
      name?: string | undefined;
      note?: string | undefined;
    }>();
  });
});
