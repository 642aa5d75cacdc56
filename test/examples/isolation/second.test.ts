import { describe } from 'vitest';
import { isolatedSuite } from './isolated-suite.js';

describe('the second of two test files running at once', () => isolatedSuite('second'));
