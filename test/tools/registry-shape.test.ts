import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputJsonSchema, outputJsonSchema } from '../../src/core/registry.js';
import type { AnyTool } from '../../src/core/tool.js';
import { TOOLSETS } from '../../src/core/toolset.js';
import { ALL_TOOLS, createRegistry } from '../../src/tools/index.js';
import { openObjects, schemaProperties, undescribed } from '../helpers/schema.js';

// The checks every tool must pass, whatever its area; the area files (banking-shape, ...) keep
// what is specific to them: the exact tools, their hints, secret fields and Slack flags.

const registry = createRegistry();
const tools = registry.list();
const each = tools.map((t): [string, AnyTool] => [t.name, t]);

/** Input fields the configuration (company, program and agent codes) or the acting user fills in. */
const FILLED_BY_CONFIGURATION = [
  'companyCode',
  'company_code',
  'programCode',
  'program_code',
  'agentCode',
  'agent_code',
  'subagentCode',
  'subagent_code',
  'createdBy',
  'created_by',
  'updatedBy',
  'updated_by',
];

/**
 * An input field a person types a PIN or an activation code into: `pin`, `new_pin`,
 * `activation_code` (any casing), or a bare `code`, issuing B's assignment code, which activates
 * the card it comes with. Typed into Slack it would stay in the workspace's history.
 */
const isPinOrCode = (field: string): boolean => {
  const snake = field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return snake === 'code' || /(^|_)(pin|activation_code|card_number)(_|$)/.test(snake);
};

const inputFields = (tool: AnyTool): string[] => Object.keys(tool.input.shape);

describe('every tool of the registry: shape', () => {
  it('finds fields without a description (the check itself)', () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.string() }).describe('b') });
    expect(undescribed(z.toJSONSchema(schema))).toEqual(['a', 'b.c']);
    const deeper = z.object({
      list: z.array(z.object({ d: z.string() })).describe('list'),
      maybe: z.object({ e: z.string() }).nullable().describe('maybe'),
    });
    expect(undescribed(z.toJSONSchema(deeper))).toEqual(['list.d', 'maybe.e']);
  });

  it('recognises PIN and activation-code fields (the check itself)', () => {
    for (const field of ['pin', 'new_pin', 'newPin', 'activation_code', 'activationCode', 'code'])
      expect(isPinOrCode(field), field).toBe(true);
    for (const field of [
      'program_code',
      'country_code',
      'mobileCountryCode',
      'purposeCode',
      'spin',
      'pinned',
    ])
      expect(isPinOrCode(field), field).toBe(false);
    expect(tools.filter((t) => inputFields(t).some(isPinOrCode)).map((t) => t.name)).toEqual(
      expect.arrayContaining(['activate_card_a', 'reset_pin_a', 'assign_card_b']),
    );
  });

  it.each(each)('%s: name, title, description', (name, tool) => {
    expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(tool.title.trim()).not.toBe('');
    expect(tool.description.length).toBeGreaterThan(40);
    expect(tool.description.length).toBeLessThanOrEqual(400);
  });

  it.each(each)('%s: input is an object schema, described at every depth', (name, tool) => {
    expect(tool.input).toBeInstanceOf(z.ZodObject);
    // MCP and the CLI serve the registry's schema: it must be the full conversion, nothing dropped to `any`.
    const input = z.toJSONSchema(tool.input, { io: 'input' });
    expect(inputJsonSchema(tool)).toEqual(input);
    // As parsed (defaults applied) the same fields must read as well.
    const parsed = z.toJSONSchema(tool.input, { io: 'output' });
    for (const json of [input, parsed]) {
      expect(json.type, name).toBe('object');
      expect(undescribed(json), name).toEqual([]);
    }
    for (const [key, field] of Object.entries(tool.input.shape)) {
      // Front ends read the top-level field's own description (zod keeps it on the wrapper it was set on).
      expect(z.globalRegistry.get(field)?.description, `${name}.${key}`).toMatch(/\S/);
      for (const json of [input, parsed]) {
        const property = json.properties?.[key];
        expect(
          typeof property === 'object' ? property.description : property,
          `${name}.${key} (JSON)`,
        ).toMatch(/\S/);
      }
    }
  });

  it.each(each)('%s: output is an object schema', (name, tool) => {
    expect(tool.output).toBeInstanceOf(z.ZodObject);
    const output = z.toJSONSchema(tool.output);
    expect(outputJsonSchema(tool)).toEqual(output);
    expect(output.type, name).toBe('object');
    expect(Object.keys(output.properties ?? {}).length, name).toBeGreaterThan(0);
  });

  it.each(each)('%s: hints are four flags; open-world exactly when it talks to the service', (name, tool) => {
    expect(tool.hints).toEqual({
      readOnly: expect.any(Boolean),
      destructive: expect.any(Boolean),
      idempotent: expect.any(Boolean),
      openWorld: expect.any(Boolean),
    });
    // Admin tools read bankops' own state (its approvals), and so do the balance alert tools but
    // the one that checks the currency at the service, and the payee directory's naming and
    // verification; every other tool is the service's.
    const own =
      tool.toolset === 'admin' ||
      ['list_balance_alerts', 'delete_balance_alert', 'name_payee', 'verify_payee'].includes(name);
    expect(tool.hints.openWorld, name).toBe(!own);
    if (tool.hints.readOnly) expect(tool.hints.destructive, name).toBe(false);
  });

  it.each(each)(
    '%s: fills configuration codes and the acting user instead of demanding them',
    (name, tool) => {
      const required = z.toJSONSchema(tool.input, { io: 'input' }).required ?? [];
      for (const field of FILLED_BY_CONFIGURATION) expect(required, name).not.toContain(field);
    },
  );
});

describe('the registry as a whole', () => {
  it('holds every tool once: names are unique', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(registry.size).toBe(ALL_TOOLS.length);
    expect(registry.names().sort()).toEqual([...names].sort());
  });

  it('puts every tool in a known toolset', () => {
    for (const tool of tools) expect(TOOLSETS, tool.name).toContain(tool.toolset);
  });

  it('marks tools that take a PIN, a code or a card number as secret input, and the field secret', () => {
    const offered = registry.list({ noSecretInput: true }).map((t) => t.name);
    expect(
      tools
        .filter((t) => t.secretInput === true)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['activate_card_a', 'assign_card_a', 'assign_card_b', 'reset_pin_a']);
    for (const tool of tools)
      for (const field of inputFields(tool).filter(isPinOrCode)) {
        expect(tool.secretInput, `${tool.name}.${field}`).toBe(true);
        expect(offered, tool.name).not.toContain(tool.name);
        expect(tool.secretFields, `${tool.name}.${field}`).toContain(field);
      }
  });

  it('names only fields of the input or output (at any depth) as secret', () => {
    for (const tool of tools) {
      const output = z.toJSONSchema(tool.output);
      const declared = [
        ...schemaProperties(z.toJSONSchema(tool.input, { io: 'input' })),
        ...schemaProperties(output),
      ];
      const keys = declared.map((p) => p.key);
      // A key the service may send undeclared can be marked only where the output keeps unknown keys.
      const passesThrough = openObjects(output).length > 0;
      for (const secret of tool.secretFields ?? [])
        expect(keys.includes(secret) || passesThrough, `${tool.name}: ${secret} is in no schema`).toBe(true);
    }
  });
});
