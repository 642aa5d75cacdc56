import { describe } from 'vitest';
import { isolatedSuite } from './isolated-suite.js';

describe('the first of two test files running at once', () => isolatedSuite('first'));
