import { formatLongDate } from '../../app/format/date-format';

/** 'Since 27 March 2023' for member request dates and domain creation dates. */
export const since = (iso: string) => `Since ${formatLongDate(new Date(iso))}`;
