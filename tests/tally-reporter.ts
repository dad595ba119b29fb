import { appendFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Whether a suite or the file holding `test` has an error of its own (a `beforeAll` that threw,
 * say): then its skipped tests did not run because of it, not because a filter left them out.
 */
function inBrokenSuite(test: TestCase) {
  for (let parent = test.parent; ; parent = parent.parent) {
    if (parent.errors().length > 0) return true;
    if (parent.type === 'module') return false;
  }
}

/**
 * After Vitest's own summary, one plain line: "Tests: N passed, N failed, N skipped". A file that
 * could not load, an error outside any test, a test skipped because its suite's setup failed, and
 * a run that failed with nothing counted (a global setup that threw) each count as failures, so
 * the line never reads green when something did not run. With TEST_TALLY_FILE set (as .ci/run
 * does), the counts are also appended there, one run a line, for the run's total.
 */
export default class TallyReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      let tests = 0;
      for (const test of testModule.children.allTests()) {
        tests += 1;
        const { state } = test.result();
        if (state === 'passed') passed += 1;
        else if (state === 'failed' || inBrokenSuite(test)) failed += 1;
        else skipped += 1;
      }
      if (tests === 0 && testModule.state() === 'failed') failed += 1;
    }
    if (reason !== 'passed' && failed === 0) failed = 1;
    console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    const file = process.env.TEST_TALLY_FILE;
    if (file) appendFileSync(file, `${passed} ${failed} ${skipped}\n`);
  }
}
