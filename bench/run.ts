// `npm run bench`: measurements reported as ratios against a reference run side by side in the same
// run. Not a test: nothing here passes or fails on time.
import { benchFileCount } from './fileCount.js';

const peakRss = () => `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;

await benchFileCount();
console.log(`peak memory of the benchmark process (max RSS) ${peakRss()}`);
