import { describeFailureModes } from '../helpers/failure-modes';
import { allCases } from './cases';

// Every action of the catalogue (the registry test holds every action to a request case), on its first case.
for (const set of allCases) describeFailureModes(set, [...new Set(set.cases.map((c) => c.action))]);
