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

  it('quotes at most a short prefix of oversized input, in the message, the actions and the details', () => {
    const key = 'k'.repeat(1_000_000)
    const error = new core.InvalidInputError(`unknown key ${JSON.stringify(key)}; keys: a, b`, {
      actions: [`Drop ${key}`],
      details: {input: key, nested: [{[key]: key}], count: 3},
    })
    const text = core.formatError(error)
    const json = JSON.stringify(core.errorJson(error))
    expect(text.length, 'formatted').to.be.below(400)
    expect(json.length, 'as --json and MCP structured content hold it').to.be.below(800)
    // The run cut is what has no space in it: the quotes and the semicolon with the key.
    expect(text).to.include(`unknown key "${'k'.repeat(63)}…[1000003 characters] keys: a, b`)
    expect(error.details.count).to.equal(3)
    // Words and an ordinary path stay whole; a long message of words is cut at 4,000 characters, saying so.
    const path = `/sdcard/${'Download/'.repeat(15)}file.txt`
    expect(new core.NotFoundError(`no such file: ${path}`).message).to.equal(`no such file: ${path}`)
    const wordy = new core.InvalidInputError('word '.repeat(2000)).message
    expect(wordy.length).to.be.below(4100)
    expect(wordy).to.match(/…\[10000 characters in all\]$/)
    // Never half a surrogate pair.
    expect(new core.InvalidInputError(`x${'😀'.repeat(300)}`).message).to.match(/^x(😀){31}…\[601 characters\]$/)
  })

  it('keeps an ArcError from another copy of the core (the bundle beside the sources) as it is, not INTERNAL', () => {
    // Another copy's error: its own class, with the brand every ArcError carries.
    class ForeignError extends Error {
      readonly code = 'INVALID_INPUT'
      readonly actions = ['Try this.']
      readonly details = {input: 'apk'}
      constructor(message: string) {
        super(message)
        ;(this as unknown as Record<symbol, unknown>)[Symbol.for('arc-cli.ArcError')] = true
      }

      toJSON() {
        return {code: this.code, message: this.message, actions: this.actions, details: this.details}
      }
    }
    const foreign = new ForeignError('apk must name a file inside the folder')
    expect(foreign instanceof ArcError).to.equal(false)
    expect(core.toArcError(foreign)).to.equal(foreign)
    expect(core.formatError(core.toArcError(foreign))).to.equal(
      'Error [INVALID_INPUT]: apk must name a file inside the folder\nTry: Try this.'
    )
    const plain = Object.assign(new Error('no brand'), {code: 'INVALID_INPUT'})
    expect(core.toArcError(plain).code).to.equal('INTERNAL')
  })

  it('wraps unknown throwables as INTERNAL and keeps ArcErrors as they are', () => {
    const own = new core.TimeoutError('late')
    expect(core.toArcError(own)).to.equal(own)
    const wrapped = core.toArcError(new TypeError('boom'))
    expect(wrapped.code).to.equal('INTERNAL')
    expect(wrapped.cause).to.be.instanceOf(TypeError)
  })
})
