/**
 * `onCi`: where arc counts as running in a CI job (no spinner; `assert screenshot` fails on a missing baseline).
 * The `CI` variable as CI systems set it (`true`, GitLab's `true`, some `1`), and as a job switches it off.
 */
import {expect} from 'chai'

import {onCi} from '@arc-cli/core'

describe('onCi', () => {
  it('is true where CI is set to a value, as CI systems set it', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'woodpecker']) expect(onCi({CI: value}), value).to.equal(true)
  })

  it('is false where CI is unset, empty, false or 0 (a job that says it is not one)', () => {
    expect(onCi({})).to.equal(false)
    for (const value of ['', ' ', 'false', 'False', '0'])
      expect(onCi({CI: value}), JSON.stringify(value)).to.equal(false)
  })
})
