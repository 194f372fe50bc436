import { describe, expect, it } from 'vitest';
import { riskOfPlanItem } from '../../../engine/approvals/riskyPlanItems.js';

const deletes = 'it deletes files or data';
const history = 'it forces, resets or rewrites git history';
const database = 'it changes the database';
const permissions = 'it changes permissions';
const publishes = 'it pushes, publishes or deploys outside this folder';
const installs = 'it installs or changes packages';
const runs = 'it runs commands';

describe('riskOfPlanItem', () => {
  it.each([
    ['Delete src/legacy/old.ts', deletes],
    ['Then delete the generated fixtures', deletes],
    ['Remove the build folder', deletes],
    ['Remove stale branches', deletes],
    ['rm -rf dist before building', deletes],
    ['Wipe the cache directory', deletes],
    ['Purge old log entries from the audit table', deletes],
    ['Force-push the rebased branch', history],
    ['Run git reset --hard origin/main', history],
    ['Rebase onto main with git rebase', history],
    ['Rewrite the git history to drop the large file', history],
    ['Add a migration to drop the users table', database],
    ['Run the database migrations', database],
    ['Drop the sessions table', database],
    ['Apply pending migrations', database],
    ['chmod +x scripts/build.sh', permissions],
    ['Make the release script executable', permissions],
    ['Fix file permissions on the upload folder', permissions],
    ['Publish the package to npm', publishes],
    ['Deploy to staging', publishes],
    ['Push the branch to origin', publishes],
    ['Install zod', installs],
    ['npm install --save-exact zod', installs],
    ['Add lodash as a dependency', installs],
    ['Upgrade dependencies to their latest versions', installs],
    ['Run the tests', runs],
    ['RUN THE LINTER', runs],
    ['Execute the seed script', runs],
    ['Check the output of `npm test`', runs],
    ['Runs lint after each change', runs],
  ])('flags %j: %s', (text, reason) => {
    expect(riskOfPlanItem(text)).toBe(reason);
  });

  it.each([
    'Remove unused import in src/app.ts',
    'Remove the deprecated prop from Button',
    'Handle rerun requests in the scheduler',
    'Read the runtime config once at start-up',
    'Prune stale entries from the in-memory cache',
    'Keep a running total of tokens',
    'Show the last run in the history view',
    'Add a --dry-run flag to the CLI',
    'Add a delete button to each row',
    'Rename deleteUser to removeUser',
    'Reset the form state after submit',
    'Add a migration guide to the docs',
    'Document the install steps in the README',
    'Describe how permissions are checked',
    'Push the new item onto the undo stack',
    'Make the sidebar collapsible',
    'Update the description in package.json',
    'Update setup.sh comments to match the new flags',
    'Force the chart to redraw when the window resizes',
  ])('does not flag %j', (text) => {
    expect(riskOfPlanItem(text)).toBeNull();
  });
});
