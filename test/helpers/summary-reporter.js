// Prints one closing line CI tools can read: "jest: N passed, N failed, N skipped". With JEST_SUMMARY_FILE set, it
// also writes jest's own totals there and then the plain line "N passed, N failed, N skipped" alone, so .ci/run can
// repeat them as its last words (after the fuzzer), the plain line last.
const { writeFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `jest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped`;
    process.stdout.write(`\n${line}\n`);
    const file = process.env.JEST_SUMMARY_FILE;
    if (!file) return;
    const parts = [
      results.numFailedTests ? `${results.numFailedTests} failed` : '',
      skipped ? `${skipped} skipped` : '',
      `${results.numPassedTests} passed`,
      `${results.numTotalTests} total`,
    ].filter(Boolean);
    const suites = `Test Suites: ${results.numFailedTestSuites ? `${results.numFailedTestSuites} failed, ` : ''}${results.numPassedTestSuites} passed, ${results.numTotalTestSuites} total`;
    const plain = `${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped`;
    writeFileSync(file, `${suites}\nTests:       ${parts.join(', ')}\n${plain}\n`);
  }
}
module.exports = SummaryReporter;
