export { sampleUsageEntry } from './sample-usage-entry';
