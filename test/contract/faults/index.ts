// Every behavioural fault the suite's own test injects (test/contract/faults.test.ts), one file per
// kind of bug. Each names the normative checks that must catch it (fault-proxy.ts `catches`).

import type { Fault } from '../fault-proxy.ts';
import { FAULTS as BASIC } from './basic.ts';
import { FAULTS as ERRORS } from './errors.ts';
import { FAULTS as PURCHASES } from './purchases.ts';
import { FAULTS as RESOURCES } from './resources.ts';
import { FAULTS as TIME } from './time.ts';

export const FAULTS: Fault[] = [...BASIC, ...PURCHASES, ...RESOURCES, ...ERRORS, ...TIME];
