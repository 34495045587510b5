import { invalidParameter } from '../../errors/index.js';
import {
  CONNECTION_FAULTS,
  FAULT_MOMENTS,
  INJECTABLE_STATUSES,
  type InjectableStatus,
  isInjectableStatus,
  MAX_FAULT_DELAY_MS,
} from './schemas.js';

export const FAULT_HEADER = 'Labelmock-Fault';

/**
 * One request's fault, asked for by the Labelmock-Fault header: `status=503`, `delay=2000`, `fault=reset`,
 * with `after=commit` for a lost answer (the request applied, its answer replaced).
 */
export interface HeaderFault {
  status?: InjectableStatus;
  delay_ms?: number;
  fault?: (typeof CONNECTION_FAULTS)[number];
  after?: (typeof FAULT_MOMENTS)[number];
}

const RULES = {
  status: `must be one of ${INJECTABLE_STATUSES.join(', ')}`,
  delay: `must be an integer number of milliseconds, 0-${MAX_FAULT_DELAY_MS}`,
  fault: `must be ${CONNECTION_FAULTS.join(' or ')}`,
  after: `must be ${FAULT_MOMENTS.join(' or ')}`,
};
const FORM =
  'must be a comma list of status=N, delay=MS, fault=reset|hang and after=commit (e.g. "status=500, delay=100")';

/** Parses the header; a 400 names the header and the rule of the part it cannot read. */
export function parseFaultHeader(value: string): HeaderFault {
  const fault: HeaderFault = {};
  for (const part of value.split(/[,;]/)) {
    const item = part.trim();
    if (item === '') continue;
    const [name = '', text = ''] = item.split('=', 2).map((s) => s.trim().toLowerCase());
    if (name === 'status' && /^\d{3}$/.test(text) && isInjectableStatus(Number(text))) {
      fault.status = Number(text) as InjectableStatus;
    } else if (name === 'delay' && /^\d{1,5}$/.test(text) && Number(text) <= MAX_FAULT_DELAY_MS) {
      fault.delay_ms = Number(text);
    } else if (name === 'fault' && (CONNECTION_FAULTS as readonly string[]).includes(text)) {
      fault.fault = text as HeaderFault['fault'];
    } else if (name === 'after' && (FAULT_MOMENTS as readonly string[]).includes(text)) {
      fault.after = text as HeaderFault['after'];
    } else {
      const rule = Object.hasOwn(RULES, name) ? RULES[name as keyof typeof RULES] : FORM;
      throw invalidParameter(`${FAULT_HEADER} header`, `"${item}" ${rule}`);
    }
  }
  if (fault.after !== undefined && fault.status === undefined && fault.fault === undefined)
    throw invalidParameter(`${FAULT_HEADER} header`, 'after=commit needs status=N or fault=reset|hang');
  if (fault.status === undefined && fault.delay_ms === undefined && fault.fault === undefined)
    throw invalidParameter(`${FAULT_HEADER} header`, FORM);
  if (fault.status !== undefined && fault.fault !== undefined)
    throw invalidParameter(`${FAULT_HEADER} header`, 'cannot name both status and fault');
  return fault;
}
