import {expect} from 'chai'

import {schemaFields, z} from '../../src/index.js'

describe('schemaFields (the CLI fields of a tool input schema)', () => {
  const schema = z.object({
    text: z.string().describe('What to type'),
    times: z.number().int().min(1).max(9).default(1).describe('How often'),
    mode: z.enum(['a', 'b']).optional().describe('Mode'),
  })

  it('reads each field: type, description, required, default, options, bounds', () => {
    expect(schemaFields(schema)).to.deep.equal([
      {name: 'text', type: 'string', description: 'What to type', required: true},
      {name: 'times', type: 'integer', description: 'How often', required: false, default: 1, minimum: 1, maximum: 9},
      {name: 'mode', type: 'string', description: 'Mode', required: false, options: ['a', 'b']},
    ])
  })

  it('converts a schema once: the same fields for every later ask, frozen so that no caller changes them', () => {
    const first = schemaFields(schema)
    expect(schemaFields(schema)).to.equal(first)
    expect(Object.isFrozen(first)).to.equal(true)
    expect(first.every((field) => Object.isFrozen(field))).to.equal(true)
    expect(Reflect.set(first[0] as object, 'required', false), 'a field cannot be changed').to.equal(false)
    expect(first[0]?.required).to.equal(true)
    // Another schema, even of the same shape, is read for itself.
    const same = schemaFields(schema.extend({}))
    expect(same).to.not.equal(first)
    expect(same).to.deep.equal(first)
  })
})
