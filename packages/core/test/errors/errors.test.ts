import * as core from '@arc-cli/core'
import {expect} from 'chai'

const {ArcError, EXIT_CODES, EXIT_INTERRUPTED} = core

describe('error model', () => {
  type ErrorClass = (new (message: string) => InstanceType<typeof ArcError>) & {name: string}
  const classes = (Object.values(core) as unknown[]).filter(
    (v): v is ErrorClass => typeof v === 'function' && (v as {prototype?: unknown}).prototype instanceof ArcError
  )

  it('has an exit code in the table for every error class', () => {
    expect(classes.length).to.be.at.least(12)
    for (const ErrorClass of classes) {
      const error = new ErrorClass('x')
      expect(EXIT_CODES, ErrorClass.name).to.have.property(error.code)
    }
  })

  it('gives every code its own exit status, none of them 0, the interrupt status only to CANCELLED', () => {
    const exits = Object.values(EXIT_CODES).map((e) => e.exit)
    expect(new Set(exits).size).to.equal(exits.length)
    expect(exits).to.not.include(0)
    expect(EXIT_CODES.CANCELLED.exit).to.equal(EXIT_INTERRUPTED)
  })

  it('wraps unknown throwables as INTERNAL and keeps ArcErrors as they are', () => {
    const own = new core.TimeoutError('late')
    expect(core.toArcError(own)).to.equal(own)
    const wrapped = core.toArcError(new TypeError('boom'))
    expect(wrapped.code).to.equal('INTERNAL')
    expect(wrapped.cause).to.be.instanceOf(TypeError)
  })
})
