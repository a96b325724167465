import {z} from 'zod'

import {describeInputIssues as describeToolIssues} from '../errors/describe-zod-issues.js'

/** One input field as the CLI sees it, read from the zod schema's JSON Schema (the same one MCP publishes). */
export interface SchemaField {
  name: string
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object'
  description: string
  required: boolean
  default?: unknown
  options?: string[]
  minimum?: number
  maximum?: number
  /** Item type for arrays. */
  items?: SchemaField['type']
}

interface JsonSchemaProperty {
  type?: string
  enum?: unknown[]
  description?: string
  default?: unknown
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  items?: JsonSchemaProperty
  anyOf?: JsonSchemaProperty[]
}

export function inputJsonSchema(schema: z.ZodObject): {
  properties?: Record<string, JsonSchemaProperty>
  required?: string[]
} {
  return z.toJSONSchema(schema, {io: 'input', unrepresentable: 'any'}) as never
}

/**
 * Each schema's fields, read once: converting a schema to JSON Schema costs about half a millisecond, and one command
 * line asks for the same schema's fields several times (its oclif class, its input, a batch line each). Schemas are
 * immutable; the fields are frozen, so no caller can change what the next one reads.
 */
const fieldsOf = new WeakMap<z.ZodObject, readonly SchemaField[]>()

export function schemaFields(schema: z.ZodObject): readonly SchemaField[] {
  let fields = fieldsOf.get(schema)
  if (!fields) {
    fields = Object.freeze(readFields(schema).map((field) => Object.freeze(field)))
    fieldsOf.set(schema, fields)
  }
  return fields
}

function readFields(schema: z.ZodObject): SchemaField[] {
  const json = inputJsonSchema(schema)
  const required = new Set(json.required ?? [])
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const options = prop.enum?.map(String)
    const rawType = prop.type ?? (options ? 'string' : 'string')
    const type = (
      ['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(rawType) ? rawType : 'string'
    ) as SchemaField['type']
    const field: SchemaField = {
      name,
      type,
      description: prop.description ?? '',
      required: required.has(name) && prop.default === undefined,
    }
    if (prop.default !== undefined) field.default = prop.default
    if (options) field.options = options
    if (prop.minimum !== undefined) field.minimum = prop.minimum
    if (prop.maximum !== undefined && prop.maximum < Number.MAX_SAFE_INTEGER) field.maximum = prop.maximum
    if (type === 'array' && prop.items?.type) field.items = prop.items.type as SchemaField['type']
    return field
  })
}

/** `last_lines` → `last-lines`: flags are kebab-case, schema fields snake_case (as the spec names them). */
export function flagName(field: string): string {
  return field.replaceAll('_', '-')
}

/**
 * Turns zod issues into one message that names each input the way the user typed it (`--last-lines`, `<x>`)
 * and says what is allowed: a missing one is `--timeout is required: <its description>`, a wrong one
 * `--offset must be at least 0 (got -1): <its description>` (errors/describe-zod-issues.ts words them).
 */
export function describeInputIssues(error: z.ZodError, positional: string[] = [], schema?: z.ZodObject): string {
  return describeToolIssues(error, schema, (key) =>
    positional.includes(key) ? `argument <${key}>` : `--${flagName(key)}`
  )
}
