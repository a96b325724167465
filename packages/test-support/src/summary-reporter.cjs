// Mocha's spec reporter plus one closing line, "N passed, N failed, N skipped", that CI harnesses read.
// CommonJS because mocha require()s reporters.
const Mocha = require('mocha/lib/mocha.cjs')

const {EVENT_RUN_END} = Mocha.Runner.constants

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options)
    runner.once(EVENT_RUN_END, () => {
      const {passes, failures, pending} = this.stats
      process.stdout.write(`\n${passes} passed, ${failures} failed, ${pending} skipped\n`)
    })
  }
}

module.exports = SummaryReporter
