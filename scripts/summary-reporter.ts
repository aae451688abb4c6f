import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Adds a plain closing summary after Vitest's own: each failed test with the first line of its error (the end of
 * a long CI log is often all that is kept, and Vitest's report of a failure can be longer than that end), then
 * one line, `tests: N passed, N failed, N skipped`, so that CI tooling that reads closing lines can count the run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const module of testModules) {
      const file = relative(process.cwd(), module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed += 1;
        else if (result.state === 'failed') {
          const message = result.errors?.[0]?.message?.split('\n')[0]?.slice(0, 300) ?? '';
          failures.push(`failed: ${file} > ${test.fullName}: ${message}`);
        } else skipped += 1;
      }
      // A file that failed outside its tests (an import or a hook) has no failed test to name.
      for (const error of module.errors())
        failures.push(`failed: ${file}: ${error.message?.split('\n')[0]?.slice(0, 300) ?? ''}`);
    }
    if (failures.length > 0) console.log(`\n${failures.join('\n')}`);
    console.log(`\ntests: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  }
}
